import { insertTopLevelMember, removeTopLevelMember, replaceTopLevelString } from '../../json/json-text-members.js';
import { isRecord, parseJson } from '../../json/json-value.js';
import { errorTypeForStatus } from '../../wire/messages/index.js';
import { readStreamException } from './bedrock-error.js';
import type { EventStreamFrame } from './event-stream-reader.js';

/** The `anthropic_version` Bedrock documents for Claude's Messages body (the header of Anthropic's API is not used). */
export const bedrockAnthropicVersion = 'bedrock-2023-05-31';

/** A client header as Bedrock wants it in the body: `anthropic-beta: a,b` → `["a","b"]`. */
export function betasFromHeader(value: string | undefined): readonly string[] {
  if (value === undefined) return [];
  return value.split(',').map((beta) => beta.trim()).filter((beta) => beta !== '');
}

/**
 * `{base}/model/{modelId}/{operation}`. The model id is one path segment: an ARN's `:` and `/`
 * and an inference profile's dots are escaped as the AWS SDK escapes them.
 */
export function bedrockModelUrl(baseUrl: string, modelId: string, operation: 'invoke' | 'invoke-with-response-stream' | 'converse' | 'converse-stream' | 'count-tokens'): string {
  return `${baseUrl.replace(/\/+$/, '')}/model/${encodeURIComponent(modelId)}/${operation}`;
}

/** InvokeModel for a Messages call, or InvokeModelWithResponseStream when it streams. */
export function invokeUrl(baseUrl: string, modelId: string, stream: boolean): string {
  return bedrockModelUrl(baseUrl, modelId, stream ? 'invoke-with-response-stream' : 'invoke');
}

/**
 * The InvokeModel body for a Messages body: the model is in the URL and streaming is chosen by the
 * operation, so `model` and `stream` go (Bedrock refuses them as extraneous keys); the platform's
 * `anthropic_version` comes first and the client's betas ride in `anthropic_beta`.
 */
export function invokeBodyFromMessages(body: Readonly<Record<string, unknown>>, betas: readonly string[]): Record<string, unknown> {
  const { model: _model, stream: _stream, anthropic_version: _version, ...rest } = body;
  return {
    anthropic_version: bedrockAnthropicVersion,
    ...rest,
    ...(betas.length > 0 ? { anthropic_beta: [...betas] } : {}),
  };
}

/**
 * The same rewrite on a passed-through body's text, so every other byte the client sent (member
 * order, number spelling, whitespace) reaches the model as sent. Falls back to re-serialising the
 * parsed body for shapes the scanner does not follow (escaped member names).
 */
export function rewriteMessagesTextForBedrock(text: string, parsed: Readonly<Record<string, unknown>>, betas: readonly string[]): string {
  const rewritten = rewriteText(text, parsed, betas);
  return rewritten ?? JSON.stringify(invokeBodyFromMessages(parsed, betas));
}

function rewriteText(text: string, parsed: Readonly<Record<string, unknown>>, betas: readonly string[]): string | undefined {
  let edited: string | undefined = text;
  for (const member of ['model', 'stream']) {
    if (edited === undefined || !Object.hasOwn(parsed, member)) continue;
    const before: string = edited;
    edited = removeTopLevelMember(before, member);
    if (edited === before) return undefined;
  }
  if (edited === undefined) return undefined;
  edited = Object.hasOwn(parsed, 'anthropic_version')
    ? replaceTopLevelString(edited, 'anthropic_version', bedrockAnthropicVersion)
    : insertTopLevelMember(edited, 'anthropic_version', JSON.stringify(bedrockAnthropicVersion));
  if (edited === undefined || betas.length === 0) return edited;
  if (Object.hasOwn(parsed, 'anthropic_beta')) return undefined;
  const close = edited.lastIndexOf('}');
  if (close === -1) return undefined;
  const empty = /^\s*\{\s*$/.test(edited.slice(0, close));
  return `${edited.slice(0, close)}${empty ? '' : ','}"anthropic_beta":${JSON.stringify(betas)}${edited.slice(close)}`;
}

/**
 * CountTokens (`POST /model/{modelId}/count-tokens`) takes the InvokeModel body base64-encoded in
 * `input.invokeModel.body`. A count request carries no `max_tokens`, which InvokeModel's body
 * requires, so the smallest is set: it does not change the input's count.
 */
export function countTokensBody(messagesBody: Readonly<Record<string, unknown>>, betas: readonly string[]): string {
  const invokeBody = invokeBodyFromMessages(messagesBody, betas);
  if (invokeBody.max_tokens === undefined) invokeBody.max_tokens = 1;
  const encoded = Buffer.from(JSON.stringify(invokeBody), 'utf8').toString('base64');
  return JSON.stringify({ input: { invokeModel: { body: encoded } } });
}

/** CountTokens answers `{"inputTokens": n}`. */
export function readCountedTokens(body: unknown): number | undefined {
  return isRecord(body) && typeof body.inputTokens === 'number' ? body.inputTokens : undefined;
}

/** An event of an upstream stream as the Anthropic stream decoder and the SSE relay read it. */
export interface AnthropicStreamEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * One frame of InvokeModelWithResponseStream → the Anthropic stream event it carries. Each `chunk`
 * event's payload is `{"bytes":"<base64 of one Messages stream event>"}` (with a `p` padding member
 * some regions add); the event's name is its `type`, as on Anthropic's SSE. An exception frame
 * becomes a Messages `error` event of the type its status stands for, so a relayed stream ends
 * the way Anthropic's does and the decoder maps it like any upstream stream error.
 */
export function anthropicEventFromFrame(frame: EventStreamFrame): AnthropicStreamEvent | undefined {
  if (frame.kind === 'exception') {
    const { status, message } = readStreamException(frame.exceptionType, frame.payload);
    const error = { type: errorTypeForStatus(status), message: message ?? `The upstream stream failed (${frame.exceptionType}).` };
    return { event: 'error', data: JSON.stringify({ type: 'error', error }) };
  }
  if (frame.eventType !== 'chunk') return undefined;
  const payload = parseJson(frame.payload);
  if (!isRecord(payload) || typeof payload.bytes !== 'string') return undefined;
  const data = Buffer.from(payload.bytes, 'base64').toString('utf8');
  const event = parseJson(data);
  const type = isRecord(event) && typeof event.type === 'string' ? event.type : undefined;
  return type === undefined ? undefined : { event: type, data };
}
