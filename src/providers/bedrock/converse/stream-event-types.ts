import { GatewayError } from '../../../errors/gateway-error.js';
import type { JsonRecord } from '../../../json/json-value.js';
import { isRecord } from '../../../json/json-value.js';

export function invalidStream(detail: string): GatewayError {
  return new GatewayError('upstream_invalid_response', `The upstream sent an unexpected stream: ${detail}.`);
}

/** The members of ConverseStream's output union: each event's name. */
const eventNames = new Set(['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata']);

export const streamEventTypes = {
  /**
   * An event handed over without its name, in the shape the AWS SDKs give (`{"contentBlockDelta":
   * {…}}`, one member named after the event): the name and the payload inside it.
   */
  unwrap(value: JsonRecord): { type: string; payload: JsonRecord } | undefined {
    const keys = Object.keys(value);
    const key = keys[0];
    if (keys.length !== 1 || key === undefined) return undefined;
    const payload = value[key];
    if (!isRecord(payload) || (!eventNames.has(key) && !/Exception$/.test(key))) return undefined;
    return { type: key, payload };
  },
};
