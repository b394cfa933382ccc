/**
 * Writes Responses stream events: an `event:` line and a `data:` line whose JSON starts with
 * `type` and `sequence_number`, then the event's own fields. The text is built around
 * JSON.stringify of the fields alone: the same bytes as stringifying `{ type, sequence_number,
 * ...fields }`, without copying every event into a new object first.
 */
export interface EventWriter {
  /** An event from its fields, in their key order. */
  emit(type: string, fields: Readonly<Record<string, unknown>>): string;
  /**
   * An event whose fields are already JSON: `head` from eventHead(type), `fields` the members
   * after `sequence_number`, each preceded by a comma (e.g. `,"delta":"x"`).
   */
  emitJson(head: string, fields: string): string;
}

/** Everything an event's text has before its sequence number. */
export function eventHead(type: string): string {
  return `event: ${type}\ndata: {"type":${JSON.stringify(type)},"sequence_number":`;
}

/** A writer numbering its events from 0. */
export function createEventWriter(): EventWriter {
  let sequence = 0;
  function emitJson(head: string, fields: string): string {
    const text = `${head}${sequence}${fields}}\n\n`;
    sequence += 1;
    return text;
  }
  return {
    emitJson,
    emit(type, fields) {
      const json = JSON.stringify(fields);
      // `{}` has no members; otherwise `{…}` becomes `,…` after the sequence number.
      return emitJson(eventHead(type), json.length === 2 ? '' : `,${json.slice(1, -1)}`);
    },
  };
}
