/**
 * Test support for the Messages format (never imported by runtime code): recorded fixtures from
 * test/fixtures, replay through provider stream decoders, and the real `@anthropic-ai/sdk`
 * pointed at canned gateway output through a custom fetch.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Message } from '@anthropic-ai/sdk/resources/messages/messages';
import type { IrRequest, IrStreamEvent } from '../../ir/index.js';
import type { StreamDecoder } from '../../providers/provider-adapter.js';
import type { EncodeContext, StreamEncoder } from '../client-format.js';
import { readFixture } from '../../../test/support/fixtures.js';

export interface ClientRecord {
  readonly line: number;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Readonly<Record<string, unknown>>;
}

/** The recorded HTTP requests of a client log in test/fixtures/clients (connect lines left out). */
export function readClientRecords(file: 'claude-code.jsonl' | 'anthropic-sdk.jsonl'): ClientRecord[] {
  const records: ClientRecord[] = [];
  readFixture(`clients/${file}`)
    .split('\n')
    .forEach((text, line) => {
      if (text.trim() === '') return;
      const record = JSON.parse(text) as { kind: string; path?: string; headers?: Record<string, string>; body?: unknown };
      if (record.kind !== 'request' || typeof record.body !== 'object' || record.body === null) return;
      records.push({ line, path: record.path ?? '', headers: record.headers ?? {}, body: record.body as Record<string, unknown> });
    });
  return records;
}

/** Named SSE text split back into `{event, data}` pairs (asserting the framing on the way). */
export function parseSse(text: string): { event: string; data: Record<string, unknown> }[] {
  if (text === '') return [];
  if (!text.endsWith('\n\n')) throw new Error('SSE text must end with a blank line');
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const match = /^event: ([a-z_]+)\ndata: (.*)$/s.exec(frame);
      if (match === null || match[1] === undefined || match[2] === undefined) throw new Error(`not a named SSE event: ${frame}`);
      return { event: match[1], data: JSON.parse(match[2]) as Record<string, unknown> };
    });
}

/** Feeds recorded data lines through a provider stream decoder (the way the gateway reads an upstream). */
export function replay(decoder: StreamDecoder, lines: readonly string[], eventNames = true): IrStreamEvent[] {
  const events: IrStreamEvent[] = [];
  for (const line of lines) {
    const name = eventNames ? (JSON.parse(line) as { type?: string }).type : undefined;
    events.push(...decoder.push(name, line));
  }
  if (!eventNames) events.push(...decoder.push(undefined, '[DONE]'));
  events.push(...decoder.end());
  return events;
}

export function encodeAll(encoder: StreamEncoder, events: readonly IrStreamEvent[]): string {
  return events.map((event) => encoder.encode(event)).join('');
}

export function encodeContext(request: IrRequest, model = 'public-model'): EncodeContext {
  return { requestId: 'req_test', model, request };
}

/** A real SDK client whose every call is answered with `body` (and records what it sent). */
export function sdkAnswering(body: string, contentType: string): { client: Anthropic; requests: unknown[] } {
  const requests: unknown[] = [];
  const client = new Anthropic({
    baseURL: 'http://gateway.test',
    apiKey: 'sk-test',
    maxRetries: 0,
    fetch: async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      requests.push(typeof init?.body === 'string' ? JSON.parse(init.body) : undefined);
      return new Response(body, { status: 200, headers: { 'content-type': contentType, 'request-id': 'req_test' } });
    },
  });
  return { client, requests };
}

const sdkParams = { model: 'public-model', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'hi' }] };

/** What `client.messages.stream(...).finalMessage()` makes of SSE text. */
export async function sdkFinalMessage(sse: string): Promise<Message> {
  const { client } = sdkAnswering(sse, 'text/event-stream');
  return client.messages.stream(sdkParams).finalMessage();
}

/** What `client.messages.create(...)` makes of a JSON body. */
export async function sdkCreate(body: unknown): Promise<Message> {
  const { client } = sdkAnswering(JSON.stringify(body), 'application/json');
  return client.messages.create(sdkParams);
}

/** The parts of a Message a client acts on: blocks, stop reason and the four token figures. */
export function essentials(message: Message): unknown {
  const usage = message.usage;
  return {
    content: message.content.map((block) => ({ ...block })),
    stop_reason: message.stop_reason,
    stop_sequence: message.stop_sequence,
    usage: {
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    },
  };
}
