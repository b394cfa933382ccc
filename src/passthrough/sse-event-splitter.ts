/**
 * Splits SSE text into whole events (each with its terminating blank line), so a relay can drop
 * one event and forward every other byte untouched.
 */
export function createSseEventSplitter(): { push(text: string): string[]; flush(): string[] } {
  let buffer = '';
  return {
    push(text) {
      buffer += text;
      const events: string[] = [];
      let boundary = findBoundary(buffer);
      while (boundary !== undefined) {
        events.push(buffer.slice(0, boundary));
        buffer = buffer.slice(boundary);
        boundary = findBoundary(buffer);
      }
      return events;
    },
    flush() {
      const rest = buffer;
      buffer = '';
      return rest.length > 0 ? [rest] : [];
    },
  };
}

function findBoundary(text: string): number | undefined {
  const match = /\r?\n\r?\n/.exec(text);
  return match === null ? undefined : match.index + match[0].length;
}
