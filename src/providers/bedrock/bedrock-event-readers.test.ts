import { beforeAll, describe, expect, it } from 'vitest';
import { chunkFrame, converseFrame, exceptionFrame } from '../../../test/support/fake-bedrock/event-stream-frames.js';
import type { UpstreamStreamEvent } from '../provider-adapter.js';
import { isAnthropicModelId } from './anthropic-model-id.js';
import { readAnthropicEvents, readConverseEvents } from './bedrock-event-readers.js';
import { loadEventStreamModules } from './event-stream-reader.js';

beforeAll(async () => {
  await loadEventStreamModules();
});

function read(factory: typeof readConverseEvents, frames: readonly Uint8Array[]): UpstreamStreamEvent[] {
  const events: UpstreamStreamEvent[] = [];
  const reader = factory((event) => events.push(event));
  for (const frame of frames) {
    reader.push(frame.subarray(0, 5));
    reader.push(frame.subarray(5));
  }
  reader.flush();
  return events;
}

describe('Bedrock stream readers', () => {
  it('hands ConverseStream events on by their event type, and exceptions by their exception type', () => {
    const events = read(readConverseEvents, [
      converseFrame('messageStart', { role: 'assistant' }),
      converseFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }),
      exceptionFrame('throttlingException', { message: 'Too many tokens' }),
    ]);
    expect(events.map((event) => event.event)).toEqual(['messageStart', 'contentBlockDelta', 'throttlingException']);
    expect(JSON.parse(events[1]?.data ?? '')).toMatchObject({ contentBlockIndex: 0, delta: { text: 'Hi' } });
    expect(JSON.parse(events[2]?.data ?? '')).toEqual({ message: 'Too many tokens' });
  });

  it('hands InvokeModel stream chunks on as the Anthropic events they carry', () => {
    const events = read(readAnthropicEvents, [chunkFrame({ type: 'message_stop' }), chunkFrame({ type: 'ping' })]);
    expect(events).toEqual([
      { event: 'message_stop', data: '{"type":"message_stop"}' },
      { event: 'ping', data: '{"type":"ping"}' },
    ]);
  });
});

describe('an InvokeModel stream that opens with an exception', () => {
  it('throws it as the error of the call, since nothing has reached the client yet', () => {
    const events: UpstreamStreamEvent[] = [];
    const reader = readAnthropicEvents((event) => events.push(event));
    expect(() => reader.push(exceptionFrame('throttlingException', { message: 'Too many tokens' }))).toThrow(expect.objectContaining({ status: 429, retryable: true }));
    expect(events).toEqual([]);
  });

  it('relays a later exception as a Messages error event', () => {
    const events = read(readAnthropicEvents, [chunkFrame({ type: 'message_start' }), exceptionFrame('throttlingException', { message: 'Too many tokens' })]);
    expect(events.map((event) => event.event)).toEqual(['message_start', 'error']);
  });
});

describe('Anthropic model ids on Bedrock', () => {
  it('knows foundation model ids, inference profiles and foundation model ARNs', () => {
    expect(isAnthropicModelId('anthropic.claude-3-haiku-20240307-v1:0')).toBe(true);
    expect(isAnthropicModelId('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe(true);
    expect(isAnthropicModelId('global.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe(true);
    expect(isAnthropicModelId('arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0')).toBe(true);
    expect(isAnthropicModelId('us.amazon.nova-pro-v1:0')).toBe(false);
    expect(isAnthropicModelId('meta.llama3-70b-instruct-v1:0')).toBe(false);
  });
});
