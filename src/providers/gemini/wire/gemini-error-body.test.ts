import { describe, expect, it } from 'vitest';
import { parseDurationSeconds, readGeminiErrorBody } from './gemini-error-body.js';

describe('Gemini error body', () => {
  it('rounds protobuf durations up to whole seconds', () => {
    expect(parseDurationSeconds('34.4s')).toBe(35);
    expect(parseDurationSeconds('2s')).toBe(2);
    expect(parseDurationSeconds('soon')).toBeUndefined();
  });

  it('reads code, message, status and the retry delay, and rejects other shapes', () => {
    const body = { error: { code: 429, message: 'm', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.2s' }] } };
    expect(readGeminiErrorBody(body)).toEqual({ code: 429, message: 'm', status: 'RESOURCE_EXHAUSTED', retryAfterSeconds: 2 });
    expect(readGeminiErrorBody({ candidates: [] })).toBeUndefined();
    expect(readGeminiErrorBody('text')).toBeUndefined();
  });
});
