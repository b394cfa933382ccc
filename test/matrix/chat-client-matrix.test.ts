import { defineFormatMatrix, type KnownFailures } from '../support/matrix-suite.js';

/**
 * The official `openai` client's Chat Completions API (`chat.completions.create` and
 * `chat.completions.stream().finalChatCompletion()`) against every upstream kind, stream and
 * non-stream: text, tool round trips, parallel tool calls, reasoning (test/support/matrix-suite.ts).
 * Chat has no slot for reasoning blobs, so its reasoning round trips check that nothing unsigned or
 * foreign is sent back instead.
 */
const knownFailures: KnownFailures = {};

defineFormatMatrix('chat', knownFailures);
