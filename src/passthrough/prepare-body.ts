import type { FormatName } from '../ir/format-name.js';
import { findTopLevelValue, insertTopLevelMember, replaceTopLevelString } from './rewrite-body.js';

export interface PreparedBody {
  readonly text: string;
  /**
   * True when the gateway asked a chat upstream for a usage chunk the client did not ask for:
   * that chunk is then removed from the relayed stream.
   */
  readonly injectedUsageChunk: boolean;
}

/**
 * The body sent upstream on passthrough: the client's bytes with only `model` replaced, and for
 * streamed chat calls `stream_options.include_usage` switched on, because metering needs usage.
 */
export function preparePassthroughBody(
  format: FormatName,
  rawBody: string,
  parsedBody: Readonly<Record<string, unknown>>,
  upstreamModel: string,
): PreparedBody {
  const needsUsageChunk = format === 'chat' && parsedBody.stream === true && !clientAskedForUsage(parsedBody);
  let text = parsedBody.model === upstreamModel ? rawBody : replaceTopLevelString(rawBody, 'model', upstreamModel);
  if (text !== undefined && needsUsageChunk) {
    text = findTopLevelValue(text, 'stream_options') === undefined
      ? insertTopLevelMember(text, 'stream_options', '{"include_usage":true}')
      : undefined;
  }
  if (text === undefined) {
    // Rare shapes (escaped key names, an existing stream_options without include_usage): re-serialise.
    const rewritten: Record<string, unknown> = { ...parsedBody, model: upstreamModel };
    if (needsUsageChunk) rewritten.stream_options = { ...asRecord(parsedBody.stream_options), include_usage: true };
    text = JSON.stringify(rewritten);
  }
  return { text, injectedUsageChunk: needsUsageChunk };
}

function clientAskedForUsage(body: Readonly<Record<string, unknown>>): boolean {
  return asRecord(body.stream_options).include_usage === true;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
