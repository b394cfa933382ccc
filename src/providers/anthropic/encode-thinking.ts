import type { IrRequest, ReasoningEffort } from '../../ir/index.js';
import type { MessagesEffort, MessagesThinkingConfig } from '../../wire/messages/index.js';

/** Messages requires `max_tokens`; used when the client set no output limit. */
export const defaultMaxTokens = 8192;

/** Room left for the visible answer when max_tokens has to be raised above a thinking budget. */
const answerAllowance = 4096;

/** The smallest budget Messages accepts for `thinking.type: "enabled"`. */
const minimumBudget = 1024;

/** Thinking budgets for effort levels, for clients that speak in effort rather than tokens. */
const budgetByEffort: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32000,
  max: 32000,
};

const messagesEffortByEffort: Readonly<Record<Exclude<ReasoningEffort, 'none'>, MessagesEffort>> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'xhigh',
  max: 'max',
};

export interface ThinkingSettings {
  readonly thinking?: MessagesThinkingConfig;
  /** `output_config.effort` (used with adaptive thinking, where the model picks its own budget). */
  readonly effort?: MessagesEffort;
  readonly maxTokens: number;
}

/**
 * IR reasoning → Messages `thinking` and `max_tokens`. Messages counts thinking inside max_tokens
 * and requires budget < max_tokens. Without a client cap, a limit that leaves no room above the
 * budget is raised to budget + an allowance for the answer. A client's own cap is never raised:
 * it is what the call's budget reservation was worked out from, so the thinking budget shrinks to
 * half of it instead, and thinking is left out when that half is below the smallest budget.
 */
export function encodeThinking(request: IrRequest): ThinkingSettings {
  const requestedMax = request.params.maxOutputTokens ?? defaultMaxTokens;
  const reasoning = request.reasoning;
  if (reasoning === undefined || reasoning.enabled === false || reasoning.effort === 'none') return { maxTokens: requestedMax };

  const effort = reasoning.effort === undefined ? undefined : messagesEffortByEffort[reasoning.effort];
  if (reasoning.adaptive === true) {
    return { thinking: { type: 'adaptive' }, maxTokens: requestedMax, ...(effort === undefined ? {} : { effort }) };
  }

  let budget: number | undefined = reasoning.budgetTokens;
  if (budget === undefined && reasoning.effort !== undefined) budget = budgetByEffort[reasoning.effort];
  if (budget === undefined) {
    // Reasoning asked for without any amount (e.g. only a summary preference): a medium budget.
    if (reasoning.enabled !== true && reasoning.summary === undefined) return { maxTokens: requestedMax };
    budget = budgetByEffort.medium;
  }
  if (budget === 0) return { maxTokens: requestedMax };
  budget = Math.max(minimumBudget, Math.floor(budget));
  if (requestedMax > budget) return { thinking: { type: 'enabled', budget_tokens: budget }, maxTokens: requestedMax };
  if (request.params.maxOutputTokens === undefined) return { thinking: { type: 'enabled', budget_tokens: budget }, maxTokens: budget + answerAllowance };
  const fitted = Math.floor(requestedMax / 2);
  if (fitted < minimumBudget) return { maxTokens: requestedMax };
  return { thinking: { type: 'enabled', budget_tokens: fitted }, maxTokens: requestedMax };
}
