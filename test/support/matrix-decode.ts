import { StreamAccumulator, type IrRequest, type IrResponse, type IrStreamEvent } from '../../src/ir/index.js';
import type { ProviderKind, TextGeneration } from '../../src/providers/provider-adapter.js';
import { adapterFor } from '../../src/providers/registry.js';
import { createSseReader } from '../../src/upstream/sse-reader.js';
import type { ReceivedRequest } from './scripted-upstream/index.js';
import type { UpstreamWire } from './matrix-recordings.js';

/**
 * The provider's own decoders, used to derive what each client should see: the matrix checks
 * that every client format delivers exactly what the upstream said, as the provider reads it.
 */
const adapterKind: Record<UpstreamWire, ProviderKind> = {
  chat: 'openai-compatible',
  responses: 'openai',
  anthropic: 'anthropic',
  gemini: 'gemini',
};

export function textGenerationForWire(wire: UpstreamWire): TextGeneration {
  const text = adapterFor({ providerName: 'matrix', kind: adapterKind[wire], baseUrl: 'http://unused', model: 'unused' }).text;
  if (text === undefined) throw new Error(`no text generation for ${wire}`);
  return text;
}

/** The wire of a call, from the path the gateway used. */
export function wireOfPath(path: string): UpstreamWire {
  if (path.includes('/chat/completions')) return 'chat';
  if (path.includes('/responses')) return 'responses';
  if (path.includes('/messages')) return 'anthropic';
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

export function foldEvents(events: readonly IrStreamEvent[]): IrResponse {
  const accumulator = new StreamAccumulator();
  for (const event of events) accumulator.push(event);
  return accumulator.result();
}

/** What the upstream answered in one exchange, as its provider decodes it. */
export function decodeExchange(exchange: ReceivedRequest): IrResponse {
  const wire = wireOfPath(exchange.path);
  if ((exchange.answer.contentType ?? '').startsWith('text/event-stream')) return foldEvents(decodeSseText(wire, exchange.answer.body));
  return textGenerationForWire(wire).decodeResponse(JSON.parse(exchange.answer.body) as unknown, bareIrRequest(false));
}
