import { GatewayError, upstreamStatusError } from '../../errors/gateway-error.js';
import { asRecord, parseJson, readString } from '../../json/json-value.js';

/** BFL's error text: `detail` as a string, or FastAPI's list of `{ loc, msg }`, or a `message`. */
function bflMessage(bodyText: string): string | undefined {
  const record = asRecord(parseJson(bodyText));
  if (record === undefined) return undefined;
  const detail = record.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const messages = detail.flatMap((entry) => {
      const item = asRecord(entry);
      const message = item === undefined ? undefined : readString(item, 'msg');
      return message === undefined ? [] : [message];
    });
    if (messages.length > 0) return messages.join('; ');
  }
  return readString(record, 'message');
}

function retryAfter(headers: Readonly<Record<string, string>>): number | undefined {
  const seconds = Number(headers['retry-after']);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}

/**
 * A BFL error answer → GatewayError. 402 is the account out of credits: the operator's to fix, so
 * the client sees a 502 (not a budget refusal of its own). 429 is the account's limit of active
 * tasks: a rate limit, retried on another route. The rest keep their status class.
 */
export function decodeBflError(status: number, bodyText: string, headers: Readonly<Record<string, string>>): GatewayError {
  const said = bflMessage(bodyText);
  const message = said === undefined ? `BFL upstream returned HTTP ${status}.` : `BFL upstream error: ${said}`;
  if (status === 402) return new GatewayError('upstream_error', `BFL refused the task: the account has no credits left. ${message}`, { status: 502, upstreamStatus: 402, upstreamType: 'insufficient_credits' });
  if (status === 429) {
    const wait = retryAfter(headers);
    return upstreamStatusError(429, `BFL refused the task: the account's limit of active tasks is reached. ${message}`, wait === undefined ? {} : { retryAfterSeconds: wait });
  }
  return upstreamStatusError(status, message);
}
