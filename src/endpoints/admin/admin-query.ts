import { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';
import { parseOrThrow } from '../../formats/validation/openai-parse-or-throw.js';
import type { GatewayContext } from '../../http/exchange.js';

const dateShape = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * A time in a query: a UTC day `YYYY-MM-DD` (its midnight) or an RFC 3339 time with its offset,
 * `2026-01-31T12:00:00Z`. Impossible dates (`2026-02-30`) are refused, not rolled over.
 */
export const queryTime = z.string().transform((text, context) => {
  const time = dateShape.test(text) ? new Date(text.length === 10 ? `${text}T00:00:00Z` : text) : undefined;
  const calendarDay = text.slice(0, 10);
  // A valid time whose local date is not the one written rolled over (Date accepts 02-30).
  const sameDay = time !== undefined && !Number.isNaN(time.getTime()) && (text.length === 10 ? time.toISOString().slice(0, 10) === calendarDay : validCalendarDay(calendarDay));
  if (time === undefined || !sameDay) {
    context.addIssue({ code: 'custom', message: `expected a date YYYY-MM-DD or a time like 2026-01-31T12:00:00Z, got '${text}'` });
    return z.NEVER;
  }
  return time;
});

function validCalendarDay(day: string): boolean {
  return new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
}

/** A whole number in a query, within bounds. */
export function queryInteger(name: string, min: number, max: number) {
  const bounds = `${name} must be a whole number from ${min} to ${max}`;
  return z.string().regex(/^\d{1,9}$/, bounds).transform(Number).pipe(z.number().int().min(min, bounds).max(max, bounds));
}

/** The query string validated by `schema`; a parameter the endpoint does not know is a 400 naming it. */
export function adminQuery<Schema extends z.ZodObject>(context: GatewayContext, schema: Schema): z.output<Schema> {
  const query = context.req.query();
  const known = Object.keys(schema.shape);
  const unknown = Object.keys(query).find((name) => !known.includes(name));
  if (unknown !== undefined) {
    throw new GatewayError('unknown_parameter', `Unknown parameter: '${unknown}'. This endpoint takes ${known.join(', ')}.`, { param: unknown });
  }
  return parseOrThrow(schema, query);
}

/** A range whose start is not before its end cannot hold anything: refused rather than answered empty. */
export function assertOrderedRange(since: Date | undefined, until: Date | undefined): void {
  if (since !== undefined && until !== undefined && since.getTime() >= until.getTime()) {
    throw new GatewayError('invalid_field', `since (${since.toISOString()}) must be before until (${until.toISOString()}).`, { param: 'since' });
  }
}
