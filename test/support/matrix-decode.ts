import { StreamAccumulator, type IrRequest, type IrResponse, type IrStreamEvent } from '../../src/ir/index.js';
import type { ProviderKind, TextGeneration } from '../../src/providers/provider-adapter.js';
import { adapterFor } from '../../src/providers/registry.js';
import { createSseReader } from '../../src/upstream/sse-reader.js';
import { eventStreamContentType, type ReceivedRequest } from './scripted-upstream/index.js';
import type { UpstreamWire } from './matrix-recordings.js';

/**
 * The provider's own decoders, used to derive what each client should see: the matrix checks
 * that every client format delivers exactly what the upstream said, as the provider reads it.
 * Converse is Bedrock's shape for any model but Anthropic's, so a Nova id picks its adapter.
 */
const adapterTarget: Record<UpstreamWire, { readonly kind: ProviderKind; readonly model: string }> = {
  chat: { kind: 'openai-compatible', model: 'unused' },
  responses: { kind: 'openai', model: 'unused' },
  anthropic: { kind: 'anthropic', model: 'unused' },
  gemini: { kind: 'gemini', model: 'unused' },
  converse: { kind: 'bedrock', model: 'amazon.nova-pro-v1:0' },
};

export function textGenerationForWire(wire: UpstreamWire): TextGeneration {
  const text = adapterFor({ providerName: 'matrix', baseUrl: 'http://unused', ...adapterTarget[wire] }).text;
  if (text === undefined) throw new Error(`no text generation for ${wire}`);
  return text;
}

/**
 * The text generation that reads a Bedrock stream of a wire: Claude's InvokeModelWithResponseStream
 * (each frame one Anthropic event) or ConverseStream (each frame one Converse event).
 */
function bedrockTextForWire(wire: UpstreamWire): TextGeneration {
  const model = wire === 'converse' ? adapterTarget.converse.model : 'anthropic.claude-sonnet-4-5-20250929-v1:0';
  const text = adapterFor({ providerName: 'matrix', kind: 'bedrock', baseUrl: 'http://unused', model }).text;
  if (text === undefined) throw new Error(`no Bedrock text generation for ${wire}`);
  return text;
}

/** The wire of a call, from the path the gateway used (Bedrock's operations and Vertex's methods included). */
export function wireOfPath(path: string): UpstreamWire {
  if (path.includes('/chat/completions')) return 'chat';
  if (path.includes('/responses')) return 'responses';
  if (path.includes('/messages') || /\/model\/[^/]+\/invoke/.test(path) || /:(stream)?rawPredict/i.test(path)) return 'anthropic';
  if (/\/model\/[^/]+\/converse/.test(path)) return 'converse';
  if (/generatecontent/i.test(path)) return 'gemini';
  throw new Error(`no wire for upstream path ${path}`);
}

/** A request as bare as the decoders accept: they need only the model and custom tool names. */
export function bareIrRequest(stream: boolean): IrRequest {
  return { model: 'matrix-model', messages: [], params: {}, stream, extensions: {} };
}

/** Decodes raw SSE text exactly as the translated path does (same SSE reader, same decoder). */
export function decodeSseText(wire: UpstreamWire, text: string): IrStreamEvent[] {
  const decoder = textGenerationForWire(wire).createStreamDecoder(bareIrRequest(true));
  const events: IrStreamEvent[] = [];
  const reader = createSseReader((event) => events.push(...decoder.push(event.event, event.data)));
  reader.push(new TextEncoder().encode(text));
  reader.flush();
  events.push(...decoder.end());
  return events;
}

/** Decodes Bedrock's event-stream bytes exactly as the translated path does (Bedrock's frame reader, the wire's decoder). */
export function decodeEventStreamBytes(wire: UpstreamWire, bytes: Uint8Array): IrStreamEvent[] {
  const createEventReader = bedrockTextForWire(wire).createEventReader;
  if (createEventReader === undefined) throw new Error(`no event-stream reader for ${wire}`);
  const decoder = textGenerationForWire(wire).createStreamDecoder(bareIrRequest(true));
  const events: IrStreamEvent[] = [];
  const reader = createEventReader((event) => events.push(...decoder.push(event.event, event.data)));
  reader.push(bytes);
  reader.flush();
  events.push(...decoder.end());
  return events;
}

export function foldEvents(events: readonly IrStreamEvent[]): IrResponse {
  const accumulator = new StreamAccumulator();
  for (const event of events) accumulator.push(event);
  return accumulator.result();
}

/** What the upstream answered in one exchange, as its provider decodes it. */
export function decodeExchange(exchange: ReceivedRequest): IrResponse {
  const wire = wireOfPath(exchange.path);
  const contentType = exchange.answer.contentType ?? '';
  if (contentType.startsWith(eventStreamContentType)) return foldEvents(decodeEventStreamBytes(wire, Buffer.concat(exchange.answer.bytes)));
  if (contentType.startsWith('text/event-stream')) return foldEvents(decodeSseText(wire, exchange.answer.body));
  return textGenerationForWire(wire).decodeResponse(JSON.parse(exchange.answer.body) as unknown, bareIrRequest(false));
}
