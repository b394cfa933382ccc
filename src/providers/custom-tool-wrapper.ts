import type { IrRequest } from '../ir/index.js';

/**
 * Upstreams without free-form (`custom`) tools (Messages, Converse) are offered a custom tool as an
 * ordinary tool whose only argument is the raw text; calls are unwrapped back to raw text on the way
 * out so the client sees the custom call it defined.
 */
export const customToolInputSchema: Readonly<Record<string, unknown>> = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The raw input for the tool.' } },
  required: ['input'],
};

export function customToolNames(request: IrRequest): ReadonlySet<string> {
  const names = new Set<string>();
  for (const tool of request.tools ?? []) if (tool.type === 'custom') names.add(tool.name);
  return names;
}

/** The raw text from a wrapped custom-tool input; the JSON itself when the model did not follow the schema. */
export function unwrapCustomInput(input: unknown, jsonText: string): string {
  if (typeof input === 'object' && input !== null && 'input' in input) {
    const raw: unknown = input.input;
    if (typeof raw === 'string') return raw;
  }
  return jsonText;
}
