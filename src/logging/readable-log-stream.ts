import type { DestinationStream } from 'pino';
import { readableLogLine } from './readable-log-line.js';

/**
 * A pino destination that writes each record as a readable line instead of JSON, for a terminal.
 * Formatting happens in-process: pino hands over one complete record per write.
 */
export function readableLogStream(output: NodeJS.WritableStream): DestinationStream {
  return {
    write(record: string) {
      for (const line of record.split('\n')) {
        if (line !== '') output.write(`${readableLogLine(line)}\n`);
      }
    },
  };
}
