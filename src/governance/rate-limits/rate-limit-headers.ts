import type { FormatName } from '../../ir/format-name.js';
import type { RateLimitStanding } from './key-rate-limiter.js';

/**
 * The families' own rate-limit headers (docs/api.md, "Rate-limit headers"), set by the gateway from its own
 * counters. OpenAI sends resets as durations (`20s`, `1m0s`); Anthropic as RFC 3339 times.
 * Written into `headers` when given: an answer's own header object, with nothing built in between.
 */
export function rateLimitHeaders(standing: RateLimitStanding, format: FormatName | undefined, now: number, headers: Record<string, string> = {}): Record<string, string> {
  if (format === 'messages') {
    const reset = rfc3339Text.of(standing.resetAt);
    if (standing.requestLimit !== null) {
      headers['anthropic-ratelimit-requests-limit'] = requestLimitText.of(standing.requestLimit);
      headers['anthropic-ratelimit-requests-remaining'] = String(standing.requestsRemaining);
      headers['anthropic-ratelimit-requests-reset'] = reset;
    }
    if (standing.tokenLimit !== null) {
      headers['anthropic-ratelimit-tokens-limit'] = tokenLimitText.of(standing.tokenLimit);
      headers['anthropic-ratelimit-tokens-remaining'] = String(standing.tokensRemaining);
      headers['anthropic-ratelimit-tokens-reset'] = reset;
    }
    return headers;
  }
  const reset = durationReset(standing.resetAt - now);
  if (standing.requestLimit !== null) {
    headers['x-ratelimit-limit-requests'] = requestLimitText.of(standing.requestLimit);
    headers['x-ratelimit-remaining-requests'] = String(standing.requestsRemaining);
    headers['x-ratelimit-reset-requests'] = reset;
  }
  if (standing.tokenLimit !== null) {
    headers['x-ratelimit-limit-tokens'] = tokenLimitText.of(standing.tokenLimit);
    headers['x-ratelimit-remaining-tokens'] = String(standing.tokensRemaining);
    headers['x-ratelimit-reset-tokens'] = reset;
  }
  return headers;
}

/**
 * The text of a number that seldom changes from one answer to the next (a key's limit, a window's
 * reset): the last one is kept rather than built again per answer.
 */
class LastText {
  private value = Number.NaN;
  private text = '';

  constructor(private readonly format: (value: number) => string) {}

  of(value: number): string {
    if (value !== this.value) {
      this.text = this.format(value);
      this.value = value;
    }
    return this.text;
  }
}

const requestLimitText = new LastText(String);
const tokenLimitText = new LastText(String);
// Every call of a limited key sends a reset; within a window it is one of a few strings.
const rfc3339Text = new LastText((resetAt) => new Date(resetAt).toISOString().replace(/\.\d{3}Z$/, 'Z'));
const durationText = new LastText(openAiDuration);

/** Durations of a second or more are whole seconds, so one string serves a whole second. */
function durationReset(milliseconds: number): string {
  return durationText.of(milliseconds < 1000 ? Math.max(0, Math.ceil(milliseconds)) : Math.ceil(milliseconds / 1000) * 1000);
}

/** `850ms`, `20s`, `1m0s` — the duration style of OpenAI's reset headers. */
export function openAiDuration(milliseconds: number): string {
  const ms = Math.max(0, Math.ceil(milliseconds));
  if (ms < 1000) return `${ms}ms`;
  const seconds = Math.ceil(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${seconds % 60}s`;
}
