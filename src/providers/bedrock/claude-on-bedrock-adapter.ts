import { GatewayError } from '../../errors/gateway-error.js';
import { isRecord, parseJson } from '../../json/json-value.js';
import type {
  AuthorizationHeaders,
  CallToAuthorize,
  ForwardedHeaders,
  TextProviderAdapter,
  TokenCounting,
  UpstreamTarget,
} from '../provider-adapter.js';
import {
  bedrockModelUrl,
  betasFromHeader,
  countTokensBody,
  invokeUrl,
  readCountedTokens,
  rewriteMessagesTextForBedrock,
} from './anthropic-on-bedrock.js';
import { bedrockApiRoot } from './bedrock-api-root.js';
import { decodeBedrockError } from './bedrock-error.js';
import { readAnthropicEvents } from './bedrock-event-readers.js';
import { loadEventStreamModules, loadedEventStreamModules } from './event-stream-reader.js';
import { signBedrockCall, type BedrockCredentials } from './sign-request.js';

function forwardedValue(forwarded: ForwardedHeaders, name: string): string | undefined {
  for (const [key, value] of Object.entries(forwarded)) if (key.toLowerCase() === name) return value;
  return undefined;
}

function betasOf(forwarded: ForwardedHeaders): readonly string[] {
  return betasFromHeader(forwardedValue(forwarded, 'anthropic-beta'));
}

function credentialsOf(target: UpstreamTarget): BedrockCredentials {
  if (target.bedrock === undefined) throw new GatewayError('internal_error', `The provider '${target.providerName}' has no Bedrock settings.`);
  return { ...target.bedrock, ...(target.apiKey === undefined ? {} : { apiKey: target.apiKey }) };
}

/**
 * Every Bedrock call is signed over what will be sent (or carries the API key as a bearer token).
 * The first call also loads the event-stream codec, so a stream's reader can be made at once when
 * its bytes begin; after that a bearer token is added without waiting.
 */
export function authorizeBedrockCall(call: CallToAuthorize, target: UpstreamTarget): AuthorizationHeaders | Promise<AuthorizationHeaders> {
  const credentials = credentialsOf(target);
  // A Buffer is signed as the bytes it views, not copied.
  const body = call.body === undefined || typeof call.body === 'string' ? call.body : new Uint8Array(call.body.buffer, call.body.byteOffset, call.body.byteLength);
  const codecReady = loadedEventStreamModules() === undefined ? loadEventStreamModules() : undefined;
  if (credentials.apiKey !== undefined && codecReady === undefined) return { authorization: `Bearer ${credentials.apiKey}` };
  const signing = signBedrockCall({ method: call.method, url: call.url, headers: call.headers, body }, credentials);
  return codecReady === undefined ? signing : Promise.all([signing, codecReady]).then(([headers]) => headers);
}

/** Cross-region inference profiles (`us.anthropic…`) count as the model they route to: CountTokens takes only the model's own id. */
export function countingModelId(model: string): string {
  return model.replace(/^(?:us|eu|apac|global|us-gov|jp|au|ca)\.(?=anthropic\.)/, '');
}

const claudeTokenCounting: TokenCounting = {
  nativeFormat: 'messages',
  countUrl: (target) => bedrockModelUrl(target.baseUrl, countingModelId(target.model), 'count-tokens'),
  readInputTokens: readCountedTokens,
  countBody(prepared, _target, forwarded) {
    const body = parseJson(prepared);
    if (!isRecord(body)) throw new GatewayError('invalid_request', 'The request body must be a JSON object.');
    return countTokensBody(body, betasOf(forwarded));
  },
};

/**
 * Claude on AWS Bedrock through InvokeModel: the Messages body (without `model` and `stream`, with
 * Bedrock's `anthropic_version` and the client's betas as `anthropic_beta`) and the Messages answer
 * as it is, so a Messages client passes through and meets Claude as on Anthropic; other clients are
 * translated as for Anthropic. A stream arrives as AWS's event stream, each frame one Anthropic
 * event, re-framed as SSE. The Anthropic adapter's codecs are handed in, since a vendor's folder
 * never imports another's.
 */
export function createClaudeOnBedrockAdapter(anthropic: TextProviderAdapter): TextProviderAdapter {
  return {
    kind: 'bedrock',
    apiRoot: bedrockApiRoot,
    upstreamHeaders: (target) => ({ 'content-type': 'application/json', ...target.headers }),
    authorize: authorizeBedrockCall,
    decodeError: decodeBedrockError,
    text: {
      nativeFormats: ['messages'],
      buildRequest(request, target, forwarded) {
        const messages = anthropic.text.buildRequest(request, target, forwarded);
        const parsed = parseJson(messages.body);
        if (!isRecord(parsed)) throw new GatewayError('internal_error', 'The Messages body was not an object.');
        return {
          url: invokeUrl(target.baseUrl, target.model, request.stream),
          headers: { 'content-type': 'application/json', ...target.headers },
          body: rewriteMessagesTextForBedrock(messages.body, parsed, betasOf(forwarded)),
        };
      },
      decodeResponse: anthropic.text.decodeResponse,
      createStreamDecoder: anthropic.text.createStreamDecoder,
      passthroughUrl(format, target, stream) {
        if (format !== 'messages') throw new GatewayError('internal_error', `Claude on Bedrock cannot pass ${format} requests through.`);
        return invokeUrl(target.baseUrl, target.model, stream);
      },
      passthroughBody: (_format, prepared, parsed, _target, forwarded) => rewriteMessagesTextForBedrock(prepared, parsed, betasOf(forwarded)),
      createEventReader: readAnthropicEvents,
    },
    tokenCounting: claudeTokenCounting,
  };
}
