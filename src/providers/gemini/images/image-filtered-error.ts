import { GatewayError } from '../../../errors/gateway-error.js';

/**
 * An answer with no image because Google's filters withheld it: the client's 400, with the
 * upstream's reason code kept and its explanation in the message, never an empty success.
 */
export function imageFilteredError(reasonCode: string, explanation: string | undefined): GatewayError {
  const detail = explanation === undefined || explanation.trim() === '' ? '' : `: ${explanation.trim()}`;
  return new GatewayError('upstream_client_error', `Gemini returned no image (${reasonCode})${detail}`, {
    status: 400,
    upstreamType: reasonCode,
  });
}
