import { defineFormatMatrix, type KnownFailures } from '../support/matrix-suite.js';

const geminiCallSignatureLost =
  'The thoughtSignature Gemini puts on a functionCall rides on the IR tool-call part (src/providers/gemini/gemini-part-assembler.ts), ' +
  'but encodePart in src/formats/messages/encode-response.ts (and the stream encoder) gives tool_use blocks no slot for it, so the ' +
  'echoed call comes back without it and buildGeminiConversation (src/providers/gemini/gemini-contents.ts) sends the ' +
  'skip_thought_signature_validator stand-in instead of Gemini\'s own signature.';

const openAiReasoningDropped =
  'reasoningItem in src/providers/openai-responses/encode-input.ts sends reasoning back only with an item id (rs_…), but a thinking ' +
  'block echoed by a Messages client carries only its signature (the tagged encrypted_content, src/ir/client-blob.ts), so ' +
  'decodeContent (src/formats/messages/decode-content.ts) yields a reasoning part without itemId and the encrypted reasoning is dropped.';

/**
 * The official `@anthropic-ai/sdk` client (`messages.create` and `messages.stream().finalMessage()`)
 * against every upstream kind, stream and non-stream: text, tool round trips, parallel tool calls,
 * reasoning (test/support/matrix-suite.ts).
 */
const knownFailures: KnownFailures = {
  'messages gemini reasoning round trip stream': geminiCallSignatureLost,
  'messages gemini reasoning round trip non-stream': geminiCallSignatureLost,
  'messages openai reasoning round trip stream': openAiReasoningDropped,
  'messages openai reasoning round trip non-stream': openAiReasoningDropped,
};

defineFormatMatrix('messages', knownFailures);
