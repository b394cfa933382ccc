import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { readableLogLine } from './readable-log-line.js';
import { readableLogStream } from './readable-log-stream.js';

const time = new Date(2026, 0, 2, 3, 4, 5, 6).getTime();

describe('readableLogLine', () => {
  it('puts local time, level and message first, then the fields as key=value', () => {
    const line = readableLogLine(
      JSON.stringify({ level: 30, time, service: 'switchyard', url: 'http://127.0.0.1:8787', models: ['sim-gpt', 'sim-claude'], msg: 'switchyard listening' }),
    );
    expect(line).toBe('03:04:05.006 INFO  switchyard listening url=http://127.0.0.1:8787 models=sim-gpt,sim-claude');
  });

  it('quotes values with spaces, keeps numbers and booleans bare and writes objects as JSON', () => {
    const line = readableLogLine(JSON.stringify({ level: 40, time, msg: 'upstream failed', requestId: 'req_1', reason: 'connection refused', attempt: 2, retried: true, usage: { input: 3 } }));
    expect(line).toBe('03:04:05.006 WARN  upstream failed requestId=req_1 reason="connection refused" attempt=2 retried=true usage={"input":3}');
  });

  it('shows an error by its message, not its multi-line stack', () => {
    const line = readableLogLine(JSON.stringify({ level: 50, time, msg: 'ledger write failed', err: { type: 'TypeError', message: 'bad row', stack: 'TypeError: bad row\n    at x' } }));
    expect(line).toBe('03:04:05.006 ERROR ledger write failed err="TypeError: bad row"');
    expect(line).not.toContain('\n');
  });

  it('shortens very long values and passes a line that is not JSON through', () => {
    const line = readableLogLine(JSON.stringify({ level: 20, time, msg: 'body', body: 'x'.repeat(1_000) }));
    expect(line.length).toBeLessThan(220);
    expect(line.endsWith('…')).toBe(true);
    expect(readableLogLine('not json\n')).toBe('not json');
  });
});

describe('readableLogStream', () => {
  it('turns what pino writes into one readable line per record, credentials still redacted', () => {
    let written = '';
    const output = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.toString('utf8');
        callback();
      },
    });
    const logger = createLogger('info', readableLogStream(output));
    logger.info({ requestId: 'req_2', headers: { authorization: 'Bearer sk-secret' } }, 'called');
    logger.debug('below the level');
    const lines = written.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  called requestId=req_2 headers=\{"authorization":"\[redacted\]"\}$/);
    expect(written).not.toContain('sk-secret');
  });
});
