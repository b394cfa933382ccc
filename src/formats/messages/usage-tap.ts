import type { Usage } from '../../ir/index.js';
import { isRecord, parseJson, readRecord } from '../../json/json-value.js';
import {
  mergeMessagesUsage,
  readMessagesUsage,
  usageFromMessagesFigures,
  usageFromMessagesUsage,
} from '../../wire/messages/index.js';
import type { MessagesUsageFigures } from '../../wire/messages/index.js';
import type { UsageTap } from '../client-format.js';

/** For streams relayed without `event:` names: the type is the first key of every Messages event. */
const usageEventPattern = /^\s*\{\s*"type"\s*:\s*"(message_start|message_delta|message_stop|error)"/;

export function usageFromMessagesBody(body: unknown): Usage | undefined {
  if (!isRecord(body) || !isRecord(body['usage'])) return undefined;
  return usageFromMessagesUsage(body['usage']);
}

/**
 * Reads usage from a passed-through Messages stream: message_start carries the input figures,
 * each message_delta the cumulative totals. Only those two events are parsed; text deltas, which
 * are nearly all of the stream, are recognised by their event name and skipped.
 */
export function createMessagesUsageTap(): UsageTap {
  let figures: MessagesUsageFigures | undefined;
  let ended = false;
  return {
    observe(eventName: string | undefined, data: string): void {
      const name = eventName ?? usageEventPattern.exec(data)?.[1];
      // message_stop ends a Messages stream; an error event ends it too (nothing follows it).
      if (name === 'message_stop' || name === 'error') ended = true;
      if (name !== 'message_start' && name !== 'message_delta') return;
      const event = parseJson(data);
      if (!isRecord(event)) return;
      const usage = name === 'message_start' ? readRecord(event, 'message')?.['usage'] : event['usage'];
      if (!isRecord(usage)) return;
      figures = mergeMessagesUsage(figures ?? {}, readMessagesUsage(usage));
    },
    usage(): Usage | undefined {
      return figures === undefined ? undefined : usageFromMessagesFigures(figures);
    },
    ended: () => ended,
  };
}
