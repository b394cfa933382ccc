import { GatewayError } from '../../../errors/gateway-error.js';

/**
 * Bedrock's content filters refused the prompt or withheld every picture: the client's 400 with
 * OpenAI's `content_policy_violation` code (what the Images API answers for the same outcome), the
 * upstream's own words in the message. Never retried elsewhere, and nothing is charged.
 */
export function contentFilterError(explanation: string): GatewayError {
  return new GatewayError('upstream_client_error', `The image model's content filters refused the request: ${explanation}`, {
    status: 400,
    upstreamType: 'content_policy_violation',
  });
}

/** Nova Canvas says so in a ValidationException's message or in its answer's `error` member. */
export function isContentFilterMessage(message: string): boolean {
  return /blocked by (our|the) content filters?/i.test(message);
}
