import type { FinishInfo, FinishReason } from '../../ir/index.js';
import type { ResponsesErrorObject, ResponsesIncompleteDetails, ResponsesStatus } from './responses-wire-types.js';

export interface ResponsesOutcomeFacts {
  /** `response.status` as the upstream sent it. */
  readonly status: string | undefined;
  /** `response.incomplete_details.reason`, when there is one. */
  readonly incompleteReason?: string | undefined;
  readonly hasToolCalls: boolean;
  /** The answer was a `refusal` content part. */
  readonly refused?: boolean;
}

const incompleteReasons: Readonly<Record<string, FinishReason>> = {
  max_output_tokens: 'length',
  content_filter: 'content-filter',
};

/**
 * `status` (+ `incomplete_details`) in neutral terms. Responses has no "tool calls" status: a
 * completed turn that called functions is what chat calls `tool_calls`.
 */
export function finishFromResponses(facts: ResponsesOutcomeFacts): FinishInfo {
  switch (facts.status) {
    case 'completed':
    case undefined:
      if (facts.hasToolCalls) return { reason: 'tool-calls', raw: 'completed' };
      return { reason: facts.refused ? 'refusal' : 'stop', raw: 'completed' };
    case 'incomplete': {
      const reason = facts.incompleteReason;
      return { reason: (reason === undefined ? undefined : incompleteReasons[reason]) ?? 'other', raw: reason ?? 'incomplete' };
    }
    case 'failed':
      return { reason: 'error', raw: 'failed' };
    default:
      return { reason: 'other', raw: facts.status };
  }
}

export interface ResponsesOutcome {
  readonly status: Exclude<ResponsesStatus, 'in_progress'>;
  readonly incompleteDetails: ResponsesIncompleteDetails | null;
  readonly error: ResponsesErrorObject | null;
}

/** The terminal status a Responses client is shown for an IR finish. */
export function responsesOutcome(finish: FinishInfo): ResponsesOutcome {
  switch (finish.reason) {
    case 'length':
    case 'context-window':
      return { status: 'incomplete', incompleteDetails: { reason: 'max_output_tokens' }, error: null };
    case 'content-filter':
      return { status: 'incomplete', incompleteDetails: { reason: 'content_filter' }, error: null };
    case 'error':
      return {
        status: 'failed',
        incompleteDetails: null,
        error: { code: 'server_error', message: 'The model stopped generating because of an upstream error.' },
      };
    default:
      return { status: 'completed', incompleteDetails: null, error: null };
  }
}
