import { GatewayError } from '../../errors/gateway-error.js';
import type { TextProviderAdapter } from '../provider-adapter.js';
import { bedrockApiRoot } from './bedrock-api-root.js';
import { readConverseEvents } from './bedrock-event-readers.js';
import { authorizeBedrockCall } from './claude-on-bedrock-adapter.js';
import { buildConverseRequest, createConverseStreamDecoder, decodeConverseError, decodeConverseResponse } from './converse/index.js';

/**
 * Every other model on AWS Bedrock (Amazon Nova, Meta Llama, Mistral, DeepSeek, an application
 * inference profile whose id names no model) through Converse and ConverseStream, Bedrock's one
 * request shape for all of them: no client speaks it, so every client is translated. Calls are
 * signed as Claude's are; a stream arrives as AWS's event stream, each frame a Converse event named
 * by its event type. No token counting: Bedrock's CountTokens serves only some models, so
 * `count_tokens` counts locally.
 */
export const converseOnBedrockAdapter: TextProviderAdapter = {
  kind: 'bedrock',
  apiRoot: bedrockApiRoot,
  upstreamHeaders: (target) => ({ 'content-type': 'application/json', ...target.headers }),
  authorize: authorizeBedrockCall,
  decodeError: decodeConverseError,
  text: {
    nativeFormats: [],
    buildRequest(request, target) {
      const converse = buildConverseRequest(request, target);
      return { ...converse, headers: { ...converse.headers, ...target.headers } };
    },
    decodeResponse: decodeConverseResponse,
    createStreamDecoder: createConverseStreamDecoder,
    passthroughUrl(format) {
      throw new GatewayError('internal_error', `Converse on Bedrock cannot pass ${format} requests through.`);
    },
    createEventReader: readConverseEvents,
  },
};
