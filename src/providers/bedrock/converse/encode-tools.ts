import type { IrRequest, IrTool, JsonSchema } from '../../../ir/index.js';
import { cachePoint } from './encode-content.js';
import { customToolInputSchema } from '../../custom-tool-wrapper.js';
import type { ConverseTool, ConverseToolChoice, ConverseToolConfig } from './wire/converse-request.js';

/** Converse wants an object schema; tools declared without parameters get an empty one. */
function objectSchema(parameters: JsonSchema): JsonSchema {
  if (parameters['type'] !== undefined) return parameters;
  return { type: 'object', properties: {}, ...parameters };
}

function encodeTool(tool: IrTool): ConverseTool[] {
  switch (tool.type) {
    case 'function': {
      const spec: ConverseTool = {
        toolSpec: {
          name: tool.name,
          ...(tool.description === undefined ? {} : { description: tool.description }),
          inputSchema: { json: objectSchema(tool.parameters) },
          ...(tool.strict === true ? { strict: true } : {}),
        },
      };
      return tool.cacheControl === undefined ? [spec] : [spec, cachePoint];
    }
    case 'custom':
      return [{ toolSpec: { name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), inputSchema: { json: customToolInputSchema } } }];
    case 'hosted':
      // A vendor's hosted tool runs only on that vendor; routing decides whether such a request
      // may reach this upstream at all, so its definition is not sent here.
      return [];
  }
}

function encodeToolChoice(request: IrRequest): ConverseToolChoice | undefined {
  const choice = request.toolChoice;
  switch (choice?.type) {
    case 'required':
      return { any: {} };
    case 'tool':
      return { tool: { name: choice.name } };
    case 'auto':
      return { auto: {} };
    default:
      return undefined;
  }
}

/**
 * IR tools and tool choice → Converse `toolConfig`.
 *
 * Converse refuses a conversation holding `toolUse` or `toolResult` blocks unless `toolConfig` is
 * present, and has no "none" choice. So when the history calls tools the request no longer
 * declares (or declares with `tool_choice: none`), those tools are declared again, by name with an
 * open schema, and no choice is sent: the model sees the tools its own history used. Otherwise a
 * `none` choice sends no tools at all, which is what it means.
 */
export function encodeToolConfig(request: IrRequest, calledTools: ReadonlySet<string>): ConverseToolConfig | undefined {
  const none = request.toolChoice?.type === 'none';
  const tools: ConverseTool[] = none ? [] : (request.tools ?? []).flatMap(encodeTool);
  const offered = new Set(tools.flatMap((tool) => ('toolSpec' in tool ? [tool.toolSpec.name] : [])));
  for (const name of calledTools) {
    if (offered.has(name)) continue;
    const original = (request.tools ?? []).find((tool) => tool.name === name);
    const replayed = original === undefined ? undefined : encodeTool(original)[0];
    tools.push(replayed ?? { toolSpec: { name, inputSchema: { json: { type: 'object', properties: {} } } } });
    offered.add(name);
  }
  if (tools.length === 0) return undefined;
  const toolChoice = none ? undefined : encodeToolChoice(request);
  return { tools, ...(toolChoice === undefined ? {} : { toolChoice }) };
}
