import type { FinishInfo, FinishReason } from '../../../ir/index.js';
import { geminiContentFilterReasons } from '../../../wire/content-refusal-codes.js';

/** Failures of the model's own tool-call output: the answer is unusable, not merely short. */
const errorReasons = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS']);

/**
 * Gemini `finishReason` → neutral finish. Gemini ends function-call answers with a plain `STOP`,
 * so the caller says whether the answer held calls.
 */
export function finishFromGemini(raw: string, hasToolCalls: boolean): FinishInfo {
  return { reason: reasonFor(raw, hasToolCalls), raw };
}

function reasonFor(raw: string, hasToolCalls: boolean): FinishReason {
  if (raw === 'STOP') return hasToolCalls ? 'tool-calls' : 'stop';
  if (raw === 'MAX_TOKENS') return 'length';
  if (geminiContentFilterReasons.has(raw)) return 'content-filter';
  if (errorReasons.has(raw)) return 'error';
  // OTHER, LANGUAGE, FINISH_REASON_UNSPECIFIED and values newer than this table.
  return 'other';
}

/** A prompt refused before generation (`promptFeedback.blockReason`, no candidates). */
export function finishFromBlockReason(blockReason: string): FinishInfo {
  return { reason: 'content-filter', raw: blockReason };
}
