import type { FunctionTool, IrTool, ResponseFormat, ToolChoice } from '../../ir/index.js';
import { namespaceInfo, splitToolName } from './namespaced-tool.js';

/**
 * IR tools as Responses tools: functions are flat, flattened namespaced functions are grouped
 * into their `namespace` tool again, custom tools keep their grammar, and hosted tools are sent
 * as the client wrote them when they came from a Responses client (others cannot be served).
 */
export function encodeResponsesTools(tools: readonly IrTool[]): Record<string, unknown>[] {
  const encoded: Record<string, unknown>[] = [];
  const namespaces = new Map<string, { description: string | undefined; tools: Record<string, unknown>[] }>();
  for (const tool of tools) {
    if (tool.type === 'function') {
      const info = namespaceInfo(tool);
      if (info === undefined) {
        encoded.push(encodeFunction(tool, tool.name));
        continue;
      }
      let group = namespaces.get(info.namespace);
      if (group === undefined) {
        group = { description: info.namespaceDescription, tools: [] };
        namespaces.set(info.namespace, group);
        // The group takes the position of its first member, as the client listed it.
        encoded.push({
          type: 'namespace',
          name: info.namespace,
          ...(group.description === undefined ? {} : { description: group.description }),
          tools: group.tools,
        });
      }
      group.tools.push(encodeFunction(tool, info.name));
    } else if (tool.type === 'custom') {
      encoded.push({
        type: 'custom',
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        ...(tool.format === undefined ? {} : { format: tool.format }),
      });
    } else if (tool.format === 'responses') {
      encoded.push({ ...tool.definition });
    }
  }
  return encoded;
}

function encodeFunction(tool: FunctionTool, name: string): Record<string, unknown> {
  return {
    type: 'function',
    name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: tool.parameters,
    // Responses treats a missing `strict` as true and then rejects schemas that are not strict-ready;
    // tools from other formats never promised that.
    strict: tool.strict ?? false,
  };
}

/** IR tool choice as Responses `tool_choice`; a named choice picks the kind of the tool it names. */
export function encodeResponsesToolChoice(choice: ToolChoice, tools: readonly IrTool[] | undefined): unknown {
  if (choice.type !== 'tool') return choice.type;
  const tool = tools?.find((candidate) => candidate.name === choice.name);
  if (tool?.type === 'custom') return { type: 'custom', name: choice.name };
  if (tool?.type === 'hosted') return { type: tool.name };
  return { type: 'function', name: splitToolName(choice.name, tools).name };
}

/** IR response format as Responses `text.format` (name and schema sit flat inside it). */
export function encodeResponsesTextFormat(format: ResponseFormat): Record<string, unknown> {
  if (format.type !== 'json_schema') return { type: format.type };
  return {
    type: 'json_schema',
    name: format.name,
    ...(format.description === undefined ? {} : { description: format.description }),
    schema: format.schema,
    ...(format.strict === undefined ? {} : { strict: format.strict }),
  };
}
