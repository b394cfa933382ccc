import { defineFormatMatrix, type KnownFailures } from '../support/matrix-suite.js';

const geminiCallSignatureLost =
  'The thoughtSignature Gemini puts on a functionCall rides on the IR tool-call part (src/providers/gemini/gemini-part-assembler.ts), ' +
  'but callItem in src/formats/responses/output-items.ts (and the stream encoder) gives function_call items no slot for it, so the ' +
  'echoed call comes back without it and buildGeminiConversation (src/providers/gemini/gemini-contents.ts) sends the ' +
  'skip_thought_signature_validator stand-in instead of Gemini\'s own signature.';

/**
 * The official `openai` client's Responses API (`responses.create` and
 * `responses.stream().finalResponse()`) against every upstream kind, stream and non-stream: text,
 * tool round trips, parallel tool calls, reasoning (test/support/matrix-suite.ts).
 */
const knownFailures: KnownFailures = {
  'responses gemini reasoning round trip stream': geminiCallSignatureLost,
  'responses gemini reasoning round trip non-stream': geminiCallSignatureLost,
};

defineFormatMatrix('responses', knownFailures);
