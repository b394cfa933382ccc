import { GatewayError } from '../../errors/gateway-error.js';
import type { FormatName } from '../../ir/format-name.js';
import { foreignOutputCapFields, ownOutputCapFields } from '../../wire/output-cap-fields.js';

/**
 * Refuses an output cap named as another client format names it. The format's own API refuses
 * such a field (OpenAI: unrecognized argument; Anthropic: extra inputs are not permitted), and
 * an upstream that quietly ignores it would still obey the format's own cap: accepting it would
 * let a body read one cap to the gateway and another to the upstream.
 */
export function refuseForeignOutputCap(body: Readonly<Record<string, unknown>>, format: FormatName, endpoint: string): void {
  for (const field of foreignOutputCapFields(format)) {
    // A null sets no cap: some clients write every field they know, unset ones as null.
    if (body[field] === undefined || body[field] === null) continue;
    const suggested = ownOutputCapFields[format][0] as string;
    throw new GatewayError('unsupported_parameter', `${field}: this field is not part of ${endpoint} requests, which set their output cap with ${suggested}.`, { param: field });
  }
}
