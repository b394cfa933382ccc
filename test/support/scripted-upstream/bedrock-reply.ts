import { bedrockErrorHeaders, checkBedrockCall, type BedrockCallChecks } from '../fake-bedrock/bedrock-call-checks.js';
import { chunkFrame, converseFrame } from '../fake-bedrock/event-stream-frames.js';
import type { ReceivedRequest } from './received-request.js';
import type { AnswerReply, Reply } from './reply.js';

/** The content type of Bedrock's streams: AWS's binary event stream. */
export const eventStreamContentType = 'application/vnd.amazon.eventstream';

/** Each frame in two pieces, so the gateway's reader meets frames cut mid-way as they arrive from AWS. */
function framePieces(frames: readonly Uint8Array[]): Buffer[] {
  return frames.flatMap((frame) => {
    const cut = Math.max(1, Math.floor(frame.byteLength / 3));
    return [Buffer.from(frame.subarray(0, cut)), Buffer.from(frame.subarray(cut))];
  });
}

/** The `data:` payloads of SSE text, in order. */
function sseData(text: string): string[] {
  return text.split(/\n\n/).flatMap((event) => {
    const data = event.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, ''));
    return data.length === 0 ? [] : [data.join('\n')];
  });
}

/**
 * An Anthropic SSE answer as InvokeModelWithResponseStream sends it: one `chunk` frame per event,
 * its `bytes` the event's JSON in base64. An answer that is not an SSE stream is left as it is.
 */
export function anthropicStreamAsEventStream(reply: Reply): Reply {
  if (!('pieces' in reply) || reply.pieces === undefined || (reply.contentType ?? 'text/event-stream') !== 'text/event-stream') return reply;
  const text = [...reply.pieces].map((piece) => (typeof piece === 'string' ? piece : Buffer.isBuffer(piece) ? piece.toString('utf8') : '')).join('');
  const frames = sseData(text).map((data, index) => chunkFrame(JSON.parse(data) as unknown, index));
  return { ...reply, contentType: eventStreamContentType, pieces: framePieces(frames) } satisfies AnswerReply;
}

/**
 * ConverseStream's answer from a recording whose lines are events as the AWS SDKs hand them over
 * (`{"<event name>": <payload>}`, test/fixtures/README.md): one frame per event, named by it.
 */
export function converseEventStream(lines: readonly string[]): AnswerReply {
  const frames = lines.map((line, index) => {
    const [eventType, payload] = Object.entries(JSON.parse(line) as Record<string, Record<string, unknown>>)[0] ?? ['', {}];
    return converseFrame(eventType, payload, index);
  });
  return { contentType: eventStreamContentType, pieces: framePieces(frames) };
}

function flatHeaders(request: ReceivedRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  return headers;
}

/**
 * A fake Bedrock Runtime on the scripted upstream: a call is checked as Bedrock checks it (its
 * SigV4 signature recomputed, its operation, a Claude body's `anthropic_version` and no `model`
 * or `stream`) and refused in Bedrock's shape, and only then given the scripted answer.
 */
export function bedrockReply(checks: BedrockCallChecks, answer: (request: ReceivedRequest) => Reply): (request: ReceivedRequest) => Reply {
  return (request) => {
    const verdict = checkBedrockCall({ method: request.method, target: request.path, headers: flatHeaders(request), body: request.rawBody }, checks);
    if (!verdict.ok) return { status: verdict.status, headers: bedrockErrorHeaders(verdict.errorType), body: JSON.stringify({ message: verdict.message }) };
    return answer(request);
  };
}
