import { GatewayError } from '../../errors/gateway-error.js';
import type { IrRequest, ReasoningConfig, ReasoningEffort } from '../../ir/index.js';
import type { GeminiGenerationConfig, GeminiThinkingConfig } from './wire/generate-content-request.js';

/** Gemini accepts at most five stop sequences. */
export const maxStopSequences = 5;

/** Effort → thinking budget in tokens (0 turns thinking off; 32768 is Gemini 2.5 Pro's ceiling). */
export const thinkingBudgetByEffort: Readonly<Record<ReasoningEffort, number>> = {
  none: 0,
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
  max: 32768,
};

/** Gemini's "dynamic thinking": the model picks its own budget (the IR's adaptive reasoning). */
const dynamicThinkingBudget = -1;

export function buildGenerationConfig(request: IrRequest): GeminiGenerationConfig | undefined {
  const params = request.params;
  const config: Record<string, unknown> = {};
  if (params.temperature !== undefined) config.temperature = params.temperature;
  if (params.topP !== undefined) config.topP = params.topP;
  if (params.topK !== undefined) config.topK = params.topK;
  if (params.maxOutputTokens !== undefined) config.maxOutputTokens = params.maxOutputTokens;
  if (params.seed !== undefined) config.seed = params.seed;
  if (params.presencePenalty !== undefined) config.presencePenalty = params.presencePenalty;
  if (params.frequencyPenalty !== undefined) config.frequencyPenalty = params.frequencyPenalty;
  if (params.stop !== undefined && params.stop.length > 0) {
    // Refused rather than truncated: silently ignoring a stop string would let output run past
    // where the client asked it to end.
    if (params.stop.length > maxStopSequences) {
      throw new GatewayError(
        'invalid_field',
        `Gemini models accept at most ${maxStopSequences} stop sequences; ${params.stop.length} were given.`,
      );
    }
    config.stopSequences = params.stop;
  }
  if (params.choiceCount !== undefined) {
    // Only the first candidate is decoded, so more would be paid for and thrown away.
    if (params.choiceCount > 1) {
      throw new GatewayError('unsupported_parameter', 'Gemini routes return a single choice; ask for one choice.');
    }
    config.candidateCount = params.choiceCount;
  }
  const format = request.responseFormat;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    config.responseJsonSchema = format.schema;
  }
  const thinkingConfig = request.reasoning === undefined ? undefined : buildThinkingConfig(request.reasoning);
  if (thinkingConfig !== undefined) config.thinkingConfig = thinkingConfig;
  return Object.keys(config).length === 0 ? undefined : (config as GeminiGenerationConfig);
}

/**
 * Reasoning → `thinkingConfig`. An explicit "off" wins, then an explicit budget, then adaptive
 * (dynamic), then the effort table. Thought summaries are only asked for when the client asked
 * for a summary, since they cost output tokens.
 */
export function buildThinkingConfig(reasoning: ReasoningConfig): GeminiThinkingConfig | undefined {
  if (reasoning.enabled === false) return { thinkingBudget: 0 };
  let thinkingBudget: number | undefined;
  if (reasoning.budgetTokens !== undefined) thinkingBudget = reasoning.budgetTokens;
  else if (reasoning.adaptive === true) thinkingBudget = dynamicThinkingBudget;
  else if (reasoning.effort !== undefined) thinkingBudget = thinkingBudgetByEffort[reasoning.effort];
  const includeThoughts = reasoning.summary !== undefined && thinkingBudget !== 0 ? true : undefined;
  if (thinkingBudget === undefined && includeThoughts === undefined) return undefined;
  return {
    ...(thinkingBudget === undefined ? {} : { thinkingBudget }),
    ...(includeThoughts === undefined ? {} : { includeThoughts }),
  };
}
