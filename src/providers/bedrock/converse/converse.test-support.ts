import type { IrRequest, IrStreamEvent } from '../../../ir/index.js';
import type { StreamDecoder } from '../../provider-adapter.js';
import { fixtureChunks } from '../../../../test/support/fixtures.js';

/** Test support: replaying recorded ConverseStream events, and a minimal request. Used only by *.test.ts files. */

/**
 * The `(eventName, data)` pairs of a recording under test/fixtures/bedrock/converse: each line is
 * one event as the AWS SDKs hand it over, `{"<event name>": <payload>}`.
 */
export function recordedEvents(name: string): [string, string][] {
  return fixtureChunks(`bedrock/converse/${name}`).map((line) => {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    const [eventName, payload] = Object.entries(parsed)[0] ?? ['', {}];
    return [eventName, JSON.stringify(payload)];
  });
}

/** Feeds every event to the decoder, then ends the stream. */
export function replayEvents(decoder: StreamDecoder, events: readonly [string, string][]): IrStreamEvent[] {
  return [...events.flatMap(([eventName, data]) => decoder.push(eventName, data)), ...decoder.end()];
}

export function makeRequest(overrides: Partial<IrRequest> = {}): IrRequest {
  return {
    model: 'bedrock-public',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'How many r are in strawberry?' }] }],
    params: {},
    stream: false,
    extensions: {},
    ...overrides,
  };
}

export const novaTarget = { baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com', model: 'us.amazon.nova-pro-v1:0' };
