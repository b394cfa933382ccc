import type { Usage } from '../../ir/index.js';
import { isRecord, parseJson, readRecord } from '../../json/json-value.js';
import { usageFromResponsesUsage } from '../../wire/responses/responses-usage.js';
import type { UsageTap } from '../client-format.js';

/** Only the terminal events carry usage; every other event is skipped without parsing. */
const terminalEvents: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const terminalTypePattern = /"type"\s*:\s*"response\.(?:completed|incomplete|failed)"/;

export function usageFromResponsesBody(body: unknown): Usage | undefined {
  return isRecord(body) ? usageFromResponsesUsage(body['usage']) : undefined;
}

/** Reads usage from a passed-through Responses stream without parsing every event. */
export function createResponsesUsageTap(): UsageTap {
  let latest: Usage | undefined;
  let ended = false;
  return {
    observe(eventName: string | undefined, data: string): void {
      // The `event:` line is optional in Responses streams; without it the data's type decides.
      const terminal = eventName !== undefined && eventName !== 'message' ? terminalEvents.has(eventName) : terminalTypePattern.test(data);
      if (!terminal) return;
      ended = true;
      const payload = parseJson(data);
      const found = isRecord(payload) ? usageFromResponsesUsage(readRecord(payload, 'response')?.['usage']) : undefined;
      if (found !== undefined) latest = found;
    },
    usage(): Usage | undefined {
      return latest;
    },
    ended: () => ended,
  };
}
