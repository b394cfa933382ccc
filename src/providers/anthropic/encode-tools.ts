import type { IrRequest, IrTool, JsonSchema } from '../../ir/index.js';
import { isRecord } from '../../json/json-value.js';
import type { MessagesToolChoice } from '../../wire/messages/index.js';
import { customToolInputSchema } from '../custom-tool-wrapper.js';

/** Messages requires `input_schema` to be an object schema; tools declared without parameters get an empty one. */
function objectSchema(parameters: JsonSchema): JsonSchema {
  if (parameters['type'] !== undefined) return parameters;
  return { type: 'object', properties: {}, ...parameters };
}

function encodeTool(tool: IrTool): Readonly<Record<string, unknown>> | undefined {
  switch (tool.type) {
    case 'function': {
      // Extras a Messages client set on the tool (defer_loading, strict, input_examples, …).
      const extras = tool.extensions?.['messages'];
      return {
        ...(isRecord(extras) ? extras : {}),
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        input_schema: objectSchema(tool.parameters),
        ...(tool.cacheControl === undefined ? {} : { cache_control: tool.cacheControl }),
      };
    }
    case 'custom':
      return {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        input_schema: customToolInputSchema,
      };
    case 'hosted':
      // A hosted tool's definition is only meaningful in the format it was written for; routing
      // decides whether such a request may reach this upstream at all.
      return tool.format === 'messages' ? tool.definition : undefined;
  }
}

export function encodeTools(tools: readonly IrTool[] | undefined): Readonly<Record<string, unknown>>[] {
  const encoded: Readonly<Record<string, unknown>>[] = [];
  for (const tool of tools ?? []) {
    const definition = encodeTool(tool);
    if (definition !== undefined) encoded.push(definition);
  }
  return encoded;
}

/**
 * IR tool choice → Messages `tool_choice`. Parallel calls are switched off through the choice
 * itself (`disable_parallel_tool_use`), so a request that only disables them gets an explicit
 * `auto`. `none` takes no such flag.
 */
export function encodeToolChoice(request: IrRequest): MessagesToolChoice | undefined {
  const disableParallel = request.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  const choice = request.toolChoice;
  if (choice === undefined) return request.parallelToolCalls === false ? { type: 'auto', ...disableParallel } : undefined;
  switch (choice.type) {
    case 'none':
      return { type: 'none' };
    case 'auto':
      return { type: 'auto', ...disableParallel };
    case 'required':
      return { type: 'any', ...disableParallel };
    case 'tool':
      return { type: 'tool', name: choice.name, ...disableParallel };
  }
}
