import { defineFormatMatrix, type KnownFailures } from '../support/matrix-suite.js';

/**
 * The official `@anthropic-ai/sdk` client (`messages.create` and `messages.stream().finalMessage()`)
 * against every upstream kind, stream and non-stream: text, tool round trips, parallel tool calls,
 * reasoning (test/support/matrix-suite.ts).
 */
const knownFailures: KnownFailures = {};

defineFormatMatrix('messages', knownFailures);
