import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function logged(record: Record<string, unknown>): string {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString('utf8');
      callback();
    },
  });
  createLogger('info', sink).info(record, 'upstream call');
  return text;
}

describe('the logger', () => {
  it.each([
    ['authorization', 'Bearer entra-token-secret'],
    ['api-key', 'azure-key-secret'],
    ['x-api-key', 'anthropic-key-secret'],
    ['x-goog-api-key', 'gemini-key-secret'],
    ['x-amz-security-token', 'aws-session-secret'],
  ])('redacts the %s header of a logged call', (name, value) => {
    const line = logged({ headers: { [name]: value, 'content-type': 'application/json' } });
    expect(line).not.toContain(value);
    expect(line).toContain('[redacted]');
    expect(line).toContain('application/json');
  });
});
