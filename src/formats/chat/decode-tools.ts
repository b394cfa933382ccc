import type { IrTool, ToolChoice } from '../../ir/index.js';
import { customToolSchema, functionToolSchema, type ChatToolChoiceInput } from './chat-request-schema.js';
import { parseOrThrow } from '../validation/openai-parse-or-throw.js';

/** Chat allows a function without `parameters` (no arguments); the IR always carries a schema. */
const noParameters = { type: 'object', properties: {} } as const;

export function decodeTools(tools: readonly (Record<string, unknown> & { type: string })[]): IrTool[] {
  return tools.map((tool, index): IrTool => {
    if (tool.type === 'function') {
      const { function: definition } = parseOrThrow(functionToolSchema, tool, ['tools', index]);
      return {
        type: 'function',
        name: definition.name,
        parameters: definition.parameters ?? noParameters,
        ...(definition.description === undefined ? {} : { description: definition.description }),
        ...(typeof definition.strict === 'boolean' ? { strict: definition.strict } : {}),
      };
    }
    if (tool.type === 'custom') {
      const { custom } = parseOrThrow(customToolSchema, tool, ['tools', index]);
      return {
        type: 'custom',
        name: custom.name,
        ...(custom.description === undefined ? {} : { description: custom.description }),
        ...(custom.format === undefined ? {} : { format: custom.format }),
      };
    }
    // Anything else (e.g. a vendor's built-in tool) is kept whole for a chat upstream.
    return { type: 'hosted', name: tool.type, format: 'chat', definition: tool };
  });
}

/**
 * Chat `tool_choice` in IR terms. `allowed_tools` has no IR form: its mode is used and the
 * original is kept in `extensions.chat` (see decode-request.ts) for a chat upstream.
 */
export function decodeToolChoice(choice: ChatToolChoiceInput): ToolChoice {
  if (typeof choice === 'string') return { type: choice };
  switch (choice.type) {
    case 'function':
      return { type: 'tool', name: choice.function.name };
    case 'custom':
      return { type: 'tool', name: choice.custom.name };
    case 'allowed_tools':
      return { type: choice.allowed_tools.mode };
  }
}
