import { GatewayError, upstreamStatusError } from '../../errors/gateway-error.js';
import { isRecord, parseJson } from '../../json/json-value.js';

/** Replicate's problem details: `{ title, detail, status }` (a 429 may carry `detail` alone). */
function problemText(bodyText: string): { readonly title?: string; readonly detail?: string } {
  const body = parseJson(bodyText);
  if (!isRecord(body)) return {};
  return {
    ...(typeof body.title === 'string' && body.title !== '' ? { title: body.title } : {}),
    ...(typeof body.detail === 'string' && body.detail !== '' ? { detail: body.detail } : {}),
  };
}

function retryAfterSeconds(headers: Readonly<Record<string, string>>): number | undefined {
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after');
  if (entry === undefined) return undefined;
  const seconds = Number(entry[1]);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(entry[1]);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * A Replicate error answer → GatewayError. 422 is the input the model refused (its `detail` names
 * the field) and stays the client's 4xx; 402 ("Billing required") is the gateway's own account,
 * which the client cannot fix, so it is an upstream failure another route may serve; 429 keeps
 * its `Retry-After`.
 */
export function decodeReplicateError(status: number, bodyText: string, headers: Readonly<Record<string, string>>): GatewayError {
  const { title, detail } = problemText(bodyText);
  const text = [title, detail].filter((part) => part !== undefined).join(': ');
  const message = text === '' ? `Replicate returned HTTP ${status}.` : `Replicate: ${text}`;
  const wait = retryAfterSeconds(headers);
  const options = { ...(wait === undefined ? {} : { retryAfterSeconds: wait }), ...(title === undefined ? {} : { upstreamType: title }) };
  if (status === 402) return new GatewayError('upstream_error', message, { ...options, status: 502, upstreamStatus: 402 });
  return upstreamStatusError(status, message, options);
}
