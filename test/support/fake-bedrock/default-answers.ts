/** What the fake Bedrock answers when a test scripts nothing: a short Claude answer, and a Converse one. */
export const defaultClaudeText = 'Hello from Claude on Bedrock.';

export function claudeAnswer(model: string): Record<string, unknown> {
  return {
    id: 'msg_bdrk_01',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: defaultClaudeText }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 7 },
  };
}

/** The Anthropic events of the same answer, streamed. */
export function claudeStreamEvents(model: string): readonly Record<string, unknown>[] {
  return [
    {
      type: 'message_start',
      message: { id: 'msg_bdrk_01', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 } },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello from Claude ' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'on Bedrock.' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } },
    { type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 12, outputTokenCount: 7, invocationLatency: 412, firstByteLatency: 203 } },
  ];
}

export const defaultConverseText = 'Hello from Converse.';

export function converseAnswer(): Record<string, unknown> {
  return {
    output: { message: { role: 'assistant', content: [{ text: defaultConverseText }] } },
    stopReason: 'end_turn',
    usage: { inputTokens: 9, outputTokens: 5, totalTokens: 14 },
    metrics: { latencyMs: 321 },
  };
}

export interface ConverseStreamEvent {
  readonly type: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

export function converseStreamEvents(): readonly ConverseStreamEvent[] {
  return [
    { type: 'messageStart', payload: { role: 'assistant' } },
    { type: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Hello from ' } } },
    { type: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Converse.' } } },
    { type: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
    { type: 'messageStop', payload: { stopReason: 'end_turn' } },
    { type: 'metadata', payload: { usage: { inputTokens: 9, outputTokens: 5, totalTokens: 14 }, metrics: { latencyMs: 321 } } },
  ];
}
