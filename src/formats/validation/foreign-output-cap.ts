import { GatewayError } from '../../errors/gateway-error.js';

/** Every name the three client formats give an output cap. */
const outputCapFields = ['max_tokens', 'max_completion_tokens', 'max_output_tokens'] as const;

/**
 * Refuses an output cap named as another client format names it. The format's own API refuses
 * such a field (OpenAI: unrecognized argument; Anthropic: extra inputs are not permitted), and
 * an upstream that quietly ignores it would still obey the format's own cap: accepting it would
 * let a body read one cap to the gateway and another to the upstream. `own` are the format's
 * names for the cap, the first the one to suggest.
 */
export function refuseForeignOutputCap(body: Readonly<Record<string, unknown>>, own: readonly string[], endpoint: string): void {
  for (const field of outputCapFields) {
    // A null sets no cap: some clients write every field they know, unset ones as null.
    if (own.includes(field) || body[field] === undefined || body[field] === null) continue;
    throw new GatewayError('unsupported_parameter', `${field}: this field is not part of ${endpoint} requests, which set their output cap with ${own[0] as string}.`, { param: field });
  }
}
