import type { GatewayError } from '../../../errors/gateway-error.js';
import { isRecord, parseJson, readString } from '../../../json/json-value.js';
import type { ProviderAdapter } from '../../provider-adapter.js';
import { bedrockApiRoot } from '../bedrock-api-root.js';
import { bedrockErrorType, decodeBedrockError } from '../bedrock-error.js';
import { authorizeBedrockCall } from '../claude-on-bedrock-adapter.js';
import { bedrockImageGeneration } from './bedrock-image-generation.js';
import { contentFilterError, isContentFilterMessage } from './content-filter-error.js';

/**
 * Nova Canvas refuses a prompt its filters block with a ValidationException whose message says so:
 * the client's content-policy refusal, not a malformed request. Every other error as Bedrock's.
 */
function decodeImageError(status: number, bodyText: string, headers: Readonly<Record<string, string>>): GatewayError {
  const body = parseJson(bodyText);
  const message = isRecord(body) ? (readString(body, 'message') ?? readString(body, 'Message')) : undefined;
  const type = bedrockErrorType(headers);
  const validation = type === undefined || type.toLowerCase() === 'validationexception';
  if (status === 400 && validation && message !== undefined && isContentFilterMessage(message)) return contentFilterError(message);
  return decodeBedrockError(status, bodyText, headers);
}

/**
 * Bedrock's image models (Amazon Nova Canvas, Stability AI's) through InvokeModel, signed as every
 * Bedrock call is. They generate no text, so the adapter has only the images capability.
 */
export const imagesOnBedrockAdapter: ProviderAdapter = {
  kind: 'bedrock',
  apiRoot: bedrockApiRoot,
  upstreamHeaders: (target) => ({ 'content-type': 'application/json', ...target.headers }),
  authorize: authorizeBedrockCall,
  decodeError: decodeImageError,
  images: bedrockImageGeneration,
};
