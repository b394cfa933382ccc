import { describe, expect, it } from 'vitest';
import { isUpstreamErrorEvent } from './upstream-error-event.js';

describe('an upstream error event inside a stream', () => {
  it('is known by its event name', () => {
    expect(isUpstreamErrorEvent('error', '{"type":"error"}')).toBe(true);
    expect(isUpstreamErrorEvent('response.failed', '{"type":"response.failed"}')).toBe(true);
    expect(isUpstreamErrorEvent('message_delta', '{"type":"message_delta"}')).toBe(false);
  });

  it("is known by chat's error payload, spaced or not, and by vLLM's error object", () => {
    expect(isUpstreamErrorEvent(undefined, '{"error":{"message":"m"}}')).toBe(true);
    expect(isUpstreamErrorEvent(undefined, '{ "error": {"message":"m"}}')).toBe(true);
    expect(isUpstreamErrorEvent(undefined, '{"object":"error","message":"m","type":"BadRequestError","param":null,"code":400}')).toBe(true);
    expect(isUpstreamErrorEvent(undefined, '{"object": "error", "message": "m"}')).toBe(true);
  });

  it('is not an ordinary chunk, even one that mentions an error', () => {
    expect(isUpstreamErrorEvent(undefined, '{"id":"c","object":"chat.completion.chunk","choices":[{"delta":{"content":"error"}}]}')).toBe(false);
    expect(isUpstreamErrorEvent(undefined, '{"errors_seen":0}')).toBe(false);
    expect(isUpstreamErrorEvent(undefined, '[DONE]')).toBe(false);
  });
});
