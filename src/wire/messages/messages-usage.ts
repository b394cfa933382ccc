import type { Usage } from '../../ir/index.js';
import { isRecord, readCount, readNumber, readRecord } from '../../json/json-value.js';
import type { MessagesUsage } from './messages-types.js';

/**
 * Usage figures as read from a Messages `usage` object; absent or null fields stay undefined so
 * a cumulative `message_delta` usage can replace only what it restates.
 */
export interface MessagesUsageFigures {
  readonly input?: number;
  readonly cacheWrite?: number;
  /** The part of `cacheWrite` kept one hour (`cache_creation.ephemeral_1h_input_tokens`). */
  readonly cacheWriteOneHour?: number;
  readonly cacheRead?: number;
  readonly output?: number;
  readonly thinking?: number;
}

/** Reads the figures a Messages usage object carries (unknown input tolerated: undefined figures). */
export function readMessagesUsage(value: unknown): MessagesUsageFigures {
  if (!isRecord(value)) return {};
  const details = readRecord(value, 'output_tokens_details');
  return {
    input: readNumber(value, 'input_tokens'),
    cacheWrite: readNumber(value, 'cache_creation_input_tokens'),
    cacheWriteOneHour: readCount(readRecord(value, 'cache_creation'), 'ephemeral_1h_input_tokens'),
    cacheRead: readNumber(value, 'cache_read_input_tokens'),
    output: readNumber(value, 'output_tokens'),
    thinking: details === undefined ? undefined : readNumber(details, 'thinking_tokens'),
  };
}

/** Later figures replace earlier ones field by field (Messages stream usage is cumulative). */
export function mergeMessagesUsage(earlier: MessagesUsageFigures, later: MessagesUsageFigures): MessagesUsageFigures {
  return {
    input: later.input ?? earlier.input,
    cacheWrite: later.cacheWrite ?? earlier.cacheWrite,
    cacheWriteOneHour: later.cacheWriteOneHour ?? earlier.cacheWriteOneHour,
    cacheRead: later.cacheRead ?? earlier.cacheRead,
    output: later.output ?? earlier.output,
    thinking: later.thinking ?? earlier.thinking,
  };
}

/**
 * Messages figures → disjoint IR buckets. Input is already disjoint from the cache figures;
 * output includes thinking, so thinking is taken out when the upstream reports it (without
 * `thinking_tokens` the split is unknown and everything counts as output). `cacheWrite` stays the
 * total of both cache lifetimes; the one-hour part is noted beside it only when there is one,
 * because it is priced higher.
 */
export function usageFromMessagesFigures(figures: MessagesUsageFigures): Usage {
  const output = figures.output ?? 0;
  const reasoning = Math.min(figures.thinking ?? 0, output);
  const cacheWrite = figures.cacheWrite ?? 0;
  const cacheWriteOneHour = Math.min(figures.cacheWriteOneHour ?? 0, cacheWrite);
  return {
    inputUncached: figures.input ?? 0,
    cacheRead: figures.cacheRead ?? 0,
    cacheWrite,
    ...(cacheWriteOneHour > 0 ? { cacheWriteOneHour } : {}),
    output: output - reasoning,
    reasoning,
  };
}

export function usageFromMessagesUsage(value: unknown): Usage {
  return usageFromMessagesFigures(readMessagesUsage(value));
}

/** IR buckets → the Messages usage object (output re-includes reasoning, as Messages counts it). */
export function messagesUsageFromUsage(usage: Usage): MessagesUsage {
  return {
    input_tokens: usage.inputUncached,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
    output_tokens: usage.output + usage.reasoning,
    ...(usage.reasoning > 0 ? { output_tokens_details: { thinking_tokens: usage.reasoning } } : {}),
  };
}
