import type { CallLimits } from '../../governance/key-limits.js';
import type { MeteredCall } from './metered-call-state.js';
import type { MeteredAnswer, MeteredEndpoint } from './metered-endpoint.js';

/**
 * Reserves the call's worst case against its key's budgets. Undefined when there was nothing to
 * wait for (an await costs the hot path a turn); a refusal is thrown or a rejected promise, with
 * what the endpoint adds to it (the cap field that lowers the worst case).
 */
export function reserveWorstCase<Asked, Decoded, Answer extends MeteredAnswer>(
  endpoint: MeteredEndpoint<Asked, Decoded, Answer>,
  call: MeteredCall,
  decoded: Decoded,
  limits: CallLimits,
): Promise<void> | undefined {
  if (endpoint.worstCase === undefined) return undefined;
  // Thrown as it is: what cannot be kept on a budget is no refusal of the budget's.
  const worst = endpoint.worstCase(call, decoded);
  if (endpoint.explainRefusal === undefined) return limits.reserve(call.requestId, worst);
  try {
    return limits.reserve(call.requestId, worst)?.catch((refusal: unknown) => {
      throw explained(endpoint, call, decoded, refusal);
    });
  } catch (refusal) {
    throw explained(endpoint, call, decoded, refusal);
  }
}

function explained<Asked, Decoded, Answer extends MeteredAnswer>(endpoint: MeteredEndpoint<Asked, Decoded, Answer>, call: MeteredCall, decoded: Decoded, refusal: unknown): unknown {
  return endpoint.explainRefusal === undefined ? refusal : endpoint.explainRefusal(refusal, call, decoded);
}
