import { defineFormatMatrix, type KnownFailures } from '../support/matrix-suite.js';

/**
 * The official `openai` client's Responses API (`responses.create` and
 * `responses.stream().finalResponse()`) against every upstream kind, stream and non-stream: text,
 * tool round trips, parallel tool calls, reasoning (test/support/matrix-suite.ts).
 */
const knownFailures: KnownFailures = {};

defineFormatMatrix('responses', knownFailures);
