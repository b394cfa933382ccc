import { GatewayError } from '../../errors/gateway-error.js';
import type { IrTool, ToolChoice } from '../../ir/index.js';
import { customToolSchema, type ToolChoiceInput } from './messages-request-schema.js';
import { messagesParam, parseOrThrow } from './parse-or-throw.js';

/** Tool fields the IR models; everything else on a client tool rides in its `extensions.messages`. */
const modeledToolFields: ReadonlySet<string> = new Set(['name', 'description', 'input_schema', 'cache_control']);

/**
 * Messages tools as IR tools. A tool with a `type` other than "custom" is a server tool
 * (web_search_20250305, code_execution_…, …): only an Anthropic upstream can run it, so it is kept
 * whole as a hosted tool of the `messages` format. Client tools keep their schema exactly as sent
 * (`$schema`, `additionalProperties`, …); `strict`, `defer_loading`, `type` and any other extras
 * ride in the tool's extensions so an Anthropic upstream sees them again.
 */
export function decodeTools(tools: readonly Record<string, unknown>[]): IrTool[] {
  return tools.map((tool, index): IrTool => {
    const type = tool['type'];
    if (typeof type === 'string' && type !== 'custom') return { type: 'hosted', name: type, format: 'messages', definition: tool };
    if (type !== undefined && type !== null && type !== 'custom') {
      const param = messagesParam(['tools', index, 'type']);
      throw new GatewayError('invalid_field', `${param}: expected a string.`, { param });
    }
    const parsed = parseOrThrow(customToolSchema, tool, ['tools', index]);
    const extras: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(tool)) if (!modeledToolFields.has(key)) extras[key] = value;
    const cacheControl = parsed.cache_control;
    return {
      type: 'function',
      name: parsed.name,
      parameters: parsed.input_schema,
      ...(parsed.description === undefined ? {} : { description: parsed.description }),
      ...(parsed.strict === undefined ? {} : { strict: parsed.strict }),
      ...(cacheControl === null || cacheControl === undefined
        ? {}
        : { cacheControl: cacheControl.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: cacheControl.ttl } }),
      ...(Object.keys(extras).length === 0 ? {} : { extensions: { messages: extras } }),
    };
  });
}

/** Messages `tool_choice` → IR choice, plus `parallelToolCalls: false` for `disable_parallel_tool_use`. */
export function decodeToolChoice(choice: ToolChoiceInput): { toolChoice: ToolChoice; parallelToolCalls?: false } {
  const parallel = 'disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use === true ? { parallelToolCalls: false as const } : {};
  switch (choice.type) {
    case 'auto':
      return { toolChoice: { type: 'auto' }, ...parallel };
    case 'any':
      return { toolChoice: { type: 'required' }, ...parallel };
    case 'tool':
      return { toolChoice: { type: 'tool', name: choice.name }, ...parallel };
    case 'none':
      return { toolChoice: { type: 'none' } };
  }
}
