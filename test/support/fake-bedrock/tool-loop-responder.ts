import { blocksOf, textOf, type Block } from '../claude-message-blocks.js';
import type { BedrockReply, BedrockRequest } from './fake-bedrock.js';

/** The shell command the fake model asks a coding agent to run, and the text its output carries. */
export const toolLoopCommand = 'echo bedrock-tool-ran';

function answer(request: BedrockRequest, content: readonly Record<string, unknown>[], stopReason: string): BedrockReply {
  const usage = { input_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 12 };
  const message = { id: `msg_bdrk_${Date.now()}`, type: 'message', role: 'assistant', model: request.modelId, content, stop_reason: stopReason, stop_sequence: null, usage };
  if (request.operation === 'invoke') return { kind: 'invoke', body: message };
  const events: unknown[] = [{ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } }];
  content.forEach((block, index) => {
    if (block.type === 'tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    } else {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 12 } });
  events.push({ type: 'message_stop' });
  return { kind: 'invoke-stream', events };
}

/**
 * Plays Claude in a coding agent's tool loop: asked with a Bash tool, it calls it with
 * `echo bedrock-tool-ran`; handed the tool's result, it answers `Tool result: <output>`. Any other
 * call (an agent's side requests) gets a short text answer.
 */
export function toolLoopResponder(request: BedrockRequest): BedrockReply | undefined {
  if (request.operation !== 'invoke' && request.operation !== 'invoke-with-response-stream') return undefined;
  const body = request.invokeBody ?? {};
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  const toolResult = blocksOf(messages.at(-1)).find((block) => block.type === 'tool_result');
  if (toolResult !== undefined) return answer(request, [{ type: 'text', text: `Tool result: ${textOf(toolResult.content).trim()}` }], 'end_turn');
  const tools = Array.isArray(body.tools) ? (body.tools as Block[]) : [];
  if (tools.some((tool) => tool.name === 'Bash')) {
    return answer(request, [{ type: 'tool_use', id: `toolu_bdrk_${Date.now()}`, name: 'Bash', input: { command: toolLoopCommand, description: 'Print a marker' } }], 'tool_use');
  }
  return answer(request, [{ type: 'text', text: 'ok' }], 'end_turn');
}
