/** HTTP status classes: a status as a label value would let odd statuses grow the series count. */
export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';

/** Indexed by a status's hundreds: asked for every ledger entry, so no string is built per call. */
const classes: readonly StatusClass[] = ['5xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/** The class of an HTTP status; anything outside 100–599 counts as a server failure. */
export function statusClass(status: number): StatusClass {
  const hundreds = Math.floor(status / 100);
  return hundreds >= 1 && hundreds <= 5 ? classes[hundreds]! : '5xx';
}
