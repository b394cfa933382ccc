import type { IrTool, ResponseFormat, ToolChoice } from '../../../ir/index.js';

/** IR tools as chat tools. Hosted tools from another format cannot be served here and are left out. */
export function encodeTools(tools: readonly IrTool[]): Record<string, unknown>[] {
  const encoded: Record<string, unknown>[] = [];
  for (const tool of tools) {
    if (tool.type === 'function') {
      encoded.push({
        type: 'function',
        function: {
          name: tool.name,
          ...(tool.description === undefined ? {} : { description: tool.description }),
          parameters: tool.parameters,
          ...(tool.strict === undefined ? {} : { strict: tool.strict }),
        },
      });
    } else if (tool.type === 'custom') {
      encoded.push({
        type: 'custom',
        custom: {
          name: tool.name,
          ...(tool.description === undefined ? {} : { description: tool.description }),
          ...(tool.format === undefined ? {} : { format: tool.format }),
        },
      });
    } else if (tool.format === 'chat') {
      encoded.push({ ...tool.definition });
    }
  }
  return encoded;
}

export function encodeToolChoice(choice: ToolChoice, tools: readonly IrTool[]): unknown {
  if (choice.type !== 'tool') return choice.type;
  const custom = tools.some((tool) => tool.type === 'custom' && tool.name === choice.name);
  return custom ? { type: 'custom', custom: { name: choice.name } } : { type: 'function', function: { name: choice.name } };
}

export function encodeResponseFormat(format: ResponseFormat): Record<string, unknown> {
  if (format.type !== 'json_schema') return { type: format.type };
  return {
    type: 'json_schema',
    json_schema: {
      name: format.name,
      ...(format.description === undefined ? {} : { description: format.description }),
      schema: format.schema,
      ...(format.strict === undefined ? {} : { strict: format.strict }),
    },
  };
}
