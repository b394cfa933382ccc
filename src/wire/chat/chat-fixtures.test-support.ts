/**
 * Test support: the recorded chat streams in test/fixtures (never imported by runtime code; read
 * them with test/support/fixtures.ts). `*.chunks.txt` holds one SSE data payload per line, without `[DONE]`.
 */

/** Every recorded chat stream, with the non-streamed body of the same provider when one exists. */
export const chatStreamFixtures = [
  { name: 'openai text', chunks: 'openai/chat/openai-text.chunks.txt', body: 'openai/chat/openai-text.json' },
  { name: 'azure model router', chunks: 'openai/chat/azure-model-router.1.chunks.txt', body: undefined },
  { name: 'deepseek tool call', chunks: 'openai-compatible/chat/deepseek-tool-call.chunks.txt', body: 'openai-compatible/chat/deepseek-tool-call.json' },
  { name: 'xai tool call', chunks: 'openai-compatible/chat/xai-tool-call.chunks.txt', body: 'openai-compatible/chat/xai-tool-call.json' },
  { name: 'groq tool call', chunks: 'openai-compatible/chat/groq-tool-call.chunks.txt', body: 'openai-compatible/chat/groq-tool-call.json' },
] as const;
