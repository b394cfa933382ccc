import type { IrRequest, ReasoningEffort } from '../../../ir/index.js';

/** Converse calls every model with one body; reasoning is the part each model family says its own way. */
export type ModelFamily = 'anthropic' | 'nova-2' | 'openai' | 'other';

/**
 * The family of a Bedrock model id: a foundation model id (`openai.gpt-oss-120b-1:0`), a
 * cross-region inference profile (`us.anthropic.…`, `global.…`) or an ARN ending in either.
 */
export function modelFamily(modelId: string): ModelFamily {
  const name = (modelId.split('/').at(-1) ?? modelId).toLowerCase().replace(/^(?:us|eu|apac|ap|jp|au|ca|us-gov|global)\./, '');
  if (name.startsWith('anthropic.')) return 'anthropic';
  if (name.startsWith('amazon.nova-2')) return 'nova-2';
  if (name.startsWith('openai.')) return 'openai';
  return 'other';
}

/** Room left for the visible answer when the output limit has to be raised above a thinking budget. */
const answerAllowance = 4096;
/** The smallest thinking budget Claude accepts. */
const minimumBudget = 1024;

const budgetByEffort: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 32000, max: 32000,
};

/** Nova 2 and gpt-oss take three levels. */
function threeLevels(effort: ReasoningEffort | undefined): 'low' | 'medium' | 'high' {
  if (effort === 'minimal' || effort === 'low') return 'low';
  if (effort === 'high' || effort === 'xhigh' || effort === 'max') return 'high';
  return 'medium';
}

export interface ReasoningSettings {
  /** Fields for `additionalModelRequestFields`. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** The output limit to send (raised only when the client set none). */
  readonly maxTokens: number | undefined;
  /** Claude with thinking on refuses a changed temperature or top_p. */
  readonly samplingAllowed: boolean;
}

function wantsReasoning(request: IrRequest): boolean {
  const reasoning = request.reasoning;
  if (reasoning === undefined || reasoning.enabled === false || reasoning.effort === 'none' || reasoning.budgetTokens === 0) return false;
  return reasoning.enabled === true || reasoning.effort !== undefined || reasoning.budgetTokens !== undefined || reasoning.adaptive === true || reasoning.summary !== undefined;
}

/**
 * IR reasoning → the model's own reasoning field: Claude's `thinking` (a budget below the output
 * limit), Nova 2's `reasoningConfig`, gpt-oss's `reasoning_effort`. Models of other families
 * (DeepSeek R1 and Qwen reason by themselves; Llama and Mistral do not) take no such field, and
 * an unknown field would fail the call, so nothing is sent for them.
 */
export function encodeReasoning(request: IrRequest, modelId: string): ReasoningSettings {
  const requestedMax = request.params.maxOutputTokens;
  const none: ReasoningSettings = { fields: {}, maxTokens: requestedMax, samplingAllowed: true };
  if (!wantsReasoning(request)) return none;
  const effort = request.reasoning?.effort;
  switch (modelFamily(modelId)) {
    case 'nova-2':
      return { ...none, fields: { reasoningConfig: { type: 'enabled', maxReasoningEffort: threeLevels(effort) } } };
    case 'openai':
      return { ...none, fields: { reasoning_effort: threeLevels(effort) } };
    case 'other':
      return none;
    case 'anthropic':
      break;
  }
  if (request.reasoning?.adaptive === true) return { fields: { thinking: { type: 'adaptive' } }, maxTokens: requestedMax, samplingAllowed: false };
  const asked = request.reasoning?.budgetTokens ?? (effort === undefined || effort === 'none' ? budgetByEffort.medium : budgetByEffort[effort]);
  const budget = Math.max(minimumBudget, Math.floor(asked));
  // A client's own cap is never raised: the call's budget reservation was worked out from it.
  if (requestedMax === undefined) return { fields: { thinking: { type: 'enabled', budget_tokens: budget } }, maxTokens: budget + answerAllowance, samplingAllowed: false };
  if (requestedMax > budget) return { fields: { thinking: { type: 'enabled', budget_tokens: budget } }, maxTokens: requestedMax, samplingAllowed: false };
  const fitted = Math.floor(requestedMax / 2);
  if (fitted < minimumBudget) return none;
  return { fields: { thinking: { type: 'enabled', budget_tokens: fitted } }, maxTokens: requestedMax, samplingAllowed: false };
}
