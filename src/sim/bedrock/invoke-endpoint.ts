import type { JsonRecord } from '../../json/json-value.js';
import { isRecord } from '../../json/json-value.js';
import { messagesEndpoint } from '../encode-messages.js';
import { extractMessages } from '../extract-messages.js';
import type { SimEndpoint } from '../sim-endpoint.js';
import { bedrockErrorHeaders } from './bedrock-errors.js';

/** The `anthropic_version` Bedrock requires in Claude's InvokeModel body. */
export const bedrockAnthropicVersion = 'bedrock-2023-05-31';

/**
 * Claude through InvokeModel: the Messages answer and events as the simulator's Anthropic shape
 * makes them, for the model the path names. Bedrock closes a stream's `message_stop` with its
 * invocation metrics; its errors come in Bedrock's shape.
 */
export const invokeEndpoint: SimEndpoint = {
  family: 'bedrock',
  extract: (body, pathModel) => ({ ...extractMessages(body), model: pathModel ?? 'sim-model' }),
  encodeJson: (reply, context) => messagesEndpoint.encodeJson(reply, context),
  encodeStream: (reply, context) =>
    messagesEndpoint.encodeStream(reply, context).map((event) => {
      if (event.event !== 'message_stop' || !isRecord(event.data)) return event;
      const invocationMetrics = { inputTokenCount: reply.usage.inputTokens - reply.usage.cacheWriteTokens, outputTokenCount: reply.usage.outputTokens, invocationLatency: 100 + 10 * reply.usage.outputTokens, firstByteLatency: 100 };
      return { ...event, data: { ...event.data, 'amazon-bedrock-invocationMetrics': invocationMetrics } };
    }),
  headers: (context) => ({ 'x-amzn-requestid': `req_${context.identity.tag}` }),
  errorHeaders: (status) => bedrockErrorHeaders(status),
};

/** What Bedrock checks of Claude's body before the model sees it; the refusal's message, or undefined. */
export function checkClaudeBody(body: JsonRecord): string | undefined {
  const extraneous = ['model', 'stream'].find((key) => Object.hasOwn(body, key));
  if (extraneous !== undefined) return `Malformed input request: #: extraneous key [${extraneous}] is not permitted, please reformat your input and try again.`;
  if (body.anthropic_version !== bedrockAnthropicVersion) return 'Malformed input request: #: required key [anthropic_version] not found or invalid, please reformat your input and try again.';
  if (typeof body.max_tokens !== 'number') return 'Malformed input request: #: required key [max_tokens] not found, please reformat your input and try again.';
  if (!Array.isArray(body.messages)) return 'Malformed input request: #: required key [messages] not found, please reformat your input and try again.';
  return undefined;
}
