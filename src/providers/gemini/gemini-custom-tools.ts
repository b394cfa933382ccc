import type { CustomTool, IrTool } from '../../ir/index.js';
import type { GeminiFunctionDeclaration } from './wire/generate-content-request.js';

/**
 * Gemini has no free-form ("custom") tools, so each one is declared as a function taking one
 * string argument; calls to it are turned back into raw-text custom calls on the way out
 * (Codex CLI's `apply_patch` keeps working on a Gemini route).
 */
export const customToolInputKey = 'input';

export function customToolNames(tools: readonly IrTool[] | undefined): ReadonlySet<string> {
  return new Set((tools ?? []).filter((tool) => tool.type === 'custom').map((tool) => tool.name));
}

export function customToolDeclaration(tool: CustomTool): GeminiFunctionDeclaration {
  const grammar = tool.format === undefined ? '' : ` Input format: ${JSON.stringify(tool.format)}`;
  const declaration: GeminiFunctionDeclaration = {
    name: tool.name,
    parametersJsonSchema: {
      type: 'object',
      properties: {
        [customToolInputKey]: { type: 'string', description: `The raw input for the tool.${grammar}` },
      },
      required: [customToolInputKey],
    },
  };
  return tool.description === undefined ? declaration : { ...declaration, description: tool.description };
}

/** The raw text of a custom call from the args Gemini produced. */
export function customInputFromArgs(args: unknown): string {
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    const input = (args as Record<string, unknown>)[customToolInputKey];
    if (typeof input === 'string') return input;
  }
  return JSON.stringify(args ?? {});
}
