import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonRecord } from '../json/json-value.js';
import { applyHeaderControls, parseDirectives } from './directives.js';
import { errorBody } from './error-bodies.js';
import { planReply } from './plan-reply.js';
import type { BodyResult } from './read-json-body.js';
import { readJsonBody } from './read-json-body.js';
import { ResponseLifetime } from './response-lifetime.js';
import { sendJson } from './send-json.js';
import type { EncodeContext, SimEndpoint, SimStreamEvent, StreamFraming } from './sim-endpoint.js';
import { frameSse } from './sim-endpoint.js';
import { simIdentity } from './sim-ids.js';
import { writeStream } from './write-stream.js';

/** How the reply leaves the server: one JSON body, SSE, Gemini's streamed JSON array, or the route's own framing. */
export type Delivery = 'json' | 'sse' | 'json-array' | 'framed' | 'by-body';

export interface SimulatorState {
  nextSequence(): number;
  streamOpened(): void;
  streamClosed(): void;
}

export interface GenerationRoute {
  readonly endpoint: SimEndpoint;
  readonly delivery: Delivery;
  readonly pathModel?: string;
  /** How a `framed` delivery frames its events. */
  readonly framing?: StreamFraming;
}

export async function handleGeneration(
  request: IncomingMessage,
  response: ServerResponse,
  route: GenerationRoute,
  state: SimulatorState,
  /** The body when the router already read it to choose the handler. */
  alreadyRead?: BodyResult,
): Promise<void> {
  const { endpoint } = route;
  const lifetime = new ResponseLifetime(response);
  const parsed = alreadyRead ?? (await readJsonBody(request));
  const sequence = state.nextSequence();
  const identity = simIdentity(sequence);
  const requestId = `req_${identity.tag}`;
  if (parsed.kind !== 'ok') {
    const status = parsed.kind === 'too-large' ? 413 : 400;
    const message = parsed.kind === 'too-large' ? 'The request body is too large.' : parsed.message;
    sendJson(response, status, errorBody(endpoint.family, status, message, requestId), endpoint.errorHeaders?.(status));
    return;
  }

  const body: JsonRecord = parsed.body;
  const conversation = endpoint.extract(body, route.pathModel);
  const context: EncodeContext = { identity, model: conversation.model, request: body };
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const directives = applyHeaderControls(parseDirectives(conversation.userText), header);
  const delivery = route.delivery === 'by-body' ? (body.stream === true ? 'sse' : 'json') : route.delivery;
  const streaming = delivery !== 'json';

  if (streaming) state.streamOpened();
  try {
    if (!(await lifetime.wait(directives.delayMs))) return;
    const headers = endpoint.headers(context);
    if (directives.errorStatus !== null) {
      const message = `Simulated error: status ${directives.errorStatus} was requested.`;
      sendJson(response, directives.errorStatus, errorBody(endpoint.family, directives.errorStatus, message, requestId), { ...headers, ...endpoint.errorHeaders?.(directives.errorStatus) });
      return;
    }
    const reply = planReply(conversation, directives);
    if (!streaming) {
      sendJson(response, 200, endpoint.encodeJson(reply, context), headers);
      return;
    }
    const events = endpoint.encodeStream(reply, context);
    const framing = delivery === 'framed' ? route.framing : undefined;
    const contentType = framing?.contentType ?? (delivery === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8');
    response.writeHead(200, { ...headers, 'content-type': contentType, 'cache-control': 'no-cache' });
    const frames = framing !== undefined ? framing.frame(events) : delivery === 'sse' ? events.map(frameSse) : arrayFrames(events);
    await writeStream(response, lifetime, frames, directives.paceMs);
  } finally {
    if (streaming) state.streamClosed();
  }
}

/** Gemini without `alt=sse` streams one JSON array, element by element. */
export function arrayFrames(events: readonly SimStreamEvent[]): string[] {
  const frames = events.map((event, index) => `${index === 0 ? '[' : ',\r\n'}${JSON.stringify(event.data)}`);
  frames.push(frames.length === 0 ? '[]' : ']');
  return frames;
}
