/**
 * The small checks the plain-request fast paths (`formats/{chat,messages,responses}/plain-*-request.ts`)
 * are written with. Each answers only whether a value is surely valid; refusing and wording the
 * refusal is left to the format's schema.
 */
export type Check = (value: unknown) => boolean;

/** A member-name → check table without a prototype, so a member named `constructor` finds no check. */
export function memberCheckTable(checks: Record<string, Check>): Readonly<Record<string, Check | undefined>> {
  return Object.assign(Object.create(null) as Record<string, Check>, checks);
}

/** Whether every own member of `body` that has a check in `table` passes it (members without one pass). */
export function passesMemberChecks(body: Record<string, unknown>, table: Readonly<Record<string, Check | undefined>>): boolean {
  for (const name in body) {
    if (!Object.hasOwn(body, name)) continue;
    const check = table[name];
    if (check !== undefined && !check(body[name])) return false;
  }
  return true;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isString(value: unknown): boolean {
  return typeof value === 'string';
}

export function isBoolean(value: unknown): boolean {
  return typeof value === 'boolean';
}

/** A whole number of zero or more. */
export function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** Never true: a member that must be absent for a body to count as plain. */
export function never(): boolean {
  return false;
}

export function nullOr(check: Check): Check {
  return (value) => value === null || check(value);
}

export function between(minimum: number, maximum: number): Check {
  return (value) => typeof value === 'number' && value >= minimum && value <= maximum;
}
