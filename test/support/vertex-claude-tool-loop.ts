import { blocksOf, textOf, type Block } from './claude-message-blocks.js';
import type { VertexModelCall } from './fake-vertex.js';
import { json, type Reply } from './scripted-upstream/index.js';

/** The shell command the fake Claude asks a coding agent to run, and the text its output carries. */
export const vertexToolLoopCommand = 'echo vertex-tool-ran';

/** The signature the fake gives its thinking, which a client must hand back unchanged on the next turn. */
export const vertexThinkingSignature = 'EqQBCkYIBxgCKkBvertexFakeSignature0123456789';

const usage = { input_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 15 };

function sse(events: readonly Record<string, unknown>[]): string[] {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
}

/** The block's events in a Messages stream: its start, its content as deltas, its stop. */
function blockEvents(block: Record<string, unknown>, index: number): Record<string, unknown>[] {
  if (block.type === 'thinking') {
    return [
      { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } },
      { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } },
      { type: 'content_block_stop', index },
    ];
  }
  if (block.type === 'tool_use') {
    return [
      { type: 'content_block_start', index, content_block: { ...block, input: {} } },
      { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } },
      { type: 'content_block_stop', index },
    ];
  }
  return [
    { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } },
    { type: 'content_block_stop', index },
  ];
}

function answer(call: VertexModelCall, content: Record<string, unknown>[], stopReason: string): Reply {
  const thinking = call.body.thinking as { type?: string } | undefined;
  // Claude Code asks for `enabled` (a budget) or `adaptive` thinking, by model and settings.
  const thinks = thinking?.type === 'enabled' || thinking?.type === 'adaptive';
  const blocks = thinks ? [{ type: 'thinking', thinking: 'The user wants the marker printed.', signature: vertexThinkingSignature }, ...content] : content;
  const message = { id: `msg_vrtx_${Date.now()}`, type: 'message', role: 'assistant', model: call.model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage };
  if (call.method !== 'streamRawPredict') return json(message);
  const events: Record<string, unknown>[] = [{ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } }];
  blocks.forEach((block, index) => events.push(...blockEvents(block, index)));
  events.push({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  events.push({ type: 'message_stop' });
  return { pieces: sse(events) };
}

/**
 * Plays Claude on Vertex in a coding agent's tool loop: asked with a Bash tool, it calls it with
 * `echo vertex-tool-ran`; handed the tool's result, it answers `Tool result: <output>`; any other
 * call gets a short text answer. With thinking enabled each answer opens with a signed thinking
 * block. A token count is answered as Vertex's `count-tokens:rawPredict` answers it.
 */
export function vertexClaudeToolLoop(call: VertexModelCall): Reply {
  if (call.model === 'count-tokens') return json({ input_tokens: 42 });
  const messages = Array.isArray(call.body.messages) ? (call.body.messages as unknown[]) : [];
  const toolResult = blocksOf(messages.at(-1)).find((block) => block.type === 'tool_result');
  if (toolResult !== undefined) return answer(call, [{ type: 'text', text: `Tool result: ${textOf(toolResult.content).trim()}` }], 'end_turn');
  const tools = Array.isArray(call.body.tools) ? (call.body.tools as Block[]) : [];
  if (tools.some((tool) => tool.name === 'Bash')) {
    return answer(call, [{ type: 'tool_use', id: `toolu_vrtx_${Date.now()}`, name: 'Bash', input: { command: vertexToolLoopCommand, description: 'Print a marker' } }], 'tool_use');
  }
  return answer(call, [{ type: 'text', text: 'ok' }], 'end_turn');
}
