#!/usr/bin/env node
// Fast fake model upstream for the Switchyard benchmarks. Binds 127.0.0.1 only.
//
//   POST /v1/chat/completions   OpenAI chat: a ~1.1 KB chat.completion, or an SSE stream of
//                               STREAM_CHUNKS chat.completion.chunk events (+ a usage chunk when the
//                               request asked for stream_options.include_usage) and `data: [DONE]`
//   POST /v1/messages           Anthropic: a ~0.9 KB message, or an SSE stream of STREAM_CHUNKS events
//                               from message_start to message_stop
//   POST /v1/images/generations OpenAI Images, as gpt-image answers: `data[].b64_json` (one entry per
//                               `"n": k` of the request, 1 when absent) of one 1024×1024 PNG of about
//                               1.5 MB (≈2.07 MB of base64), with top-level created, background, size,
//                               quality, output_format and usage
//   GET  /stats                 {"requests":n,"streams":n,"bytes_in":n}  (did the gateway really call us?)
//   GET  /health                ok
//
// Every answer is serialised once at start; per request the server reads the body, keeps only its
// first and last 4 KiB, and looks there with regexes for `"stream": true`, `"include_usage": true` and
// the per-request overrides `bench-delay-<ms>` / `bench-chunks-<n>` (so the 1,000 slow streams can
// share the server with fast ones). Request bodies are never JSON.parse'd: the upstream must cost as
// little as possible on the core it shares with the load generator.
//
// The PNG is drawn once at start with sharp (seeded noise, 7 levels per channel over a row gradient,
// so deflate can shrink it only to about half: ≈1.55 MB), and the same bytes are served every time.
//
// Env: UPSTREAM_PORT (18191), STREAM_CHUNKS (50), CHUNK_DELAY_MS (2; 0 = all chunks back to back).
import http from 'node:http';

const port = Number(process.env.UPSTREAM_PORT ?? 18191);
const host = '127.0.0.1';
const defaultChunks = Math.max(5, Number(process.env.STREAM_CHUNKS ?? 50));
const defaultDelayMs = Number(process.env.CHUNK_DELAY_MS ?? 2);
const edgeBytes = 4096;

const openaiModel = 'gpt-4o-mini-2024-07-18';
const anthropicModel = 'claude-3-5-haiku-20241022';
const created = 1731000000;
const text =
  'Sure. Here is a short overview of how an API gateway sits between an application and a model ' +
  'provider. The gateway receives the request, authenticates it, applies routing rules such as ' +
  'fallbacks, retries and load balancing across several keys or providers, optionally checks a cache, ' +
  'then forwards the request upstream and relays the response, streaming tokens back as they arrive. ' +
  'Along the way it records latency, token usage and cost so that teams can observe and budget their ' +
  'usage, and it can enforce rate limits per user or per key. Done well, the extra hop costs well ' +
  'under a millisecond.';
const words = text.split(' ');

// ---------------------------------------------------------------- OpenAI chat
const chatId = 'chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz012';
const chatUsage = {
  prompt_tokens: 42, completion_tokens: 118, total_tokens: 160,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};
const chatBody = Buffer.from(JSON.stringify({
  id: chatId, object: 'chat.completion', created, model: openaiModel,
  choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: chatUsage, service_tier: 'default', system_fingerprint: 'fp_0ba0d124f1',
}));
const chatChunk = (choices, extra = {}) => Buffer.from('data: ' + JSON.stringify({
  id: chatId, object: 'chat.completion.chunk', created, model: openaiModel, service_tier: 'default',
  system_fingerprint: 'fp_0ba0d124f1', choices, ...extra,
}) + '\n\n');

/** The chat stream for n events: role, n-2 words, finish; then usage (if asked) and [DONE]. */
function chatStream(count, includeUsage) {
  const chunks = [chatChunk([{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }], includeUsage ? { usage: null } : {})];
  for (let index = 0; index < count - 2; index++) {
    const delta = { content: (index ? ' ' : '') + words[index % words.length] };
    chunks.push(chatChunk([{ index: 0, delta, logprobs: null, finish_reason: null }], includeUsage ? { usage: null } : {}));
  }
  chunks.push(chatChunk([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }], includeUsage ? { usage: null } : {}));
  if (includeUsage) chunks.push(chatChunk([], { usage: chatUsage }));
  chunks.push(Buffer.from('data: [DONE]\n\n'));
  return chunks;
}

// ---------------------------------------------------------------- Anthropic messages
const messageId = 'msg_01XFDUDYJgAACzvnptvVoYEL';
const messageBody = Buffer.from(JSON.stringify({
  id: messageId, type: 'message', role: 'assistant', model: anthropicModel,
  content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null,
  usage: { input_tokens: 42, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 118, service_tier: 'standard' },
}));
const event = (type, body) => Buffer.from(`event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`);

/** The messages stream for n events: start, block start, n-5 deltas, block stop, delta, stop. */
function messagesStream(count) {
  const chunks = [
    event('message_start', { message: { id: messageId, type: 'message', role: 'assistant', model: anthropicModel, content: [],
      stop_reason: null, stop_sequence: null, usage: { input_tokens: 42, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1, service_tier: 'standard' } } }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ];
  for (let index = 0; index < count - 5; index++) {
    chunks.push(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: (index ? ' ' : '') + words[index % words.length] } }));
  }
  chunks.push(event('content_block_stop', { index: 0 }));
  chunks.push(event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 118 } }));
  chunks.push(event('message_stop', {}));
  return chunks;
}

// Streams are cached per (kind, count, usage) so per-request overrides cost nothing after the first.
const streamCache = new Map();
function streamFor(kind, count, includeUsage) {
  const key = `${kind}:${count}:${includeUsage}`;
  let chunks = streamCache.get(key);
  if (chunks === undefined) {
    chunks = kind === 'chat' ? chatStream(count, includeUsage) : messagesStream(count);
    streamCache.set(key, chunks);
  }
  return chunks;
}

// ---------------------------------------------------------------- OpenAI images (gpt-image)
/** A 1024×1024 RGB PNG of seeded noise: the same ≈1.55 MB on every start. */
async function drawPng() {
  const { default: sharp } = await import('sharp');
  const side = 1024;
  const raw = Buffer.alloc(side * side * 3);
  let state = 0x9e3779b9; // xorshift32
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const at = (y * side + x) * 3;
      for (let channel = 0; channel < 3; channel++) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        raw[at + channel] = ((y >> 2) + channel * 60 + ((state >>> 0) % 7)) & 255;
      }
    }
  }
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 6 }).toBuffer();
}

let pngBytes = 0;
let pngBase64 = '';
try {
  const png = await drawPng();
  pngBytes = png.length;
  pngBase64 = png.toString('base64');
} catch (error) {
  // Without sharp the chat and messages answers still work; the images path answers 404.
  process.stdout.write(`fake upstream: no image (${String(error)}); /v1/images/generations will answer 404\n`);
}
const imagesUsage = { input_tokens: 20, input_tokens_details: { text_tokens: 20, image_tokens: 0 }, output_tokens: 4160, total_tokens: 4180 };
const imagesAnswers = new Map();
/** The gpt-image answer holding `count` copies of the picture, serialised once per count. */
function imagesAnswer(count) {
  let answer = imagesAnswers.get(count);
  if (answer === undefined) {
    answer = Buffer.from(JSON.stringify({
      created, background: 'opaque', data: Array.from({ length: count }, () => ({ b64_json: pngBase64 })),
      output_format: 'png', quality: 'high', size: '1024x1024', usage: imagesUsage,
    }));
    imagesAnswers.set(count, answer);
  }
  return answer;
}

// ---------------------------------------------------------------- server
const jsonHeaders = (length) => ({ 'content-type': 'application/json', 'content-length': length });
const chatHeaders = jsonHeaders(chatBody.length);
const messageHeaders = jsonHeaders(messageBody.length);
const sseHeaders = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };
const notFound = Buffer.from('{"error":{"message":"not found","type":"invalid_request_error"}}');
const streamPattern = /"stream"\s*:\s*true/;
const usagePattern = /"include_usage"\s*:\s*true/;
const delayPattern = /bench-delay-(\d+)/;
const chunksPattern = /bench-chunks-(\d+)/;
const countPattern = /"n"\s*:\s*(\d+)/;

let requests = 0;
let streams = 0;
let bytesIn = 0;

function sendStream(response, chunks, delayMs) {
  streams++;
  response.writeHead(200, sseHeaders);
  if (delayMs <= 0) {
    for (let index = 0; index < chunks.length - 1; index++) response.write(chunks[index]);
    response.end(chunks[chunks.length - 1]);
    return;
  }
  let index = 0;
  let timer;
  response.on('close', () => clearTimeout(timer));
  const next = () => {
    if (response.destroyed) return;
    if (index === chunks.length - 1) {
      response.end(chunks[index]);
      return;
    }
    response.write(chunks[index++]);
    timer = setTimeout(next, delayMs);
  };
  next();
}

const server = http.createServer((request, response) => {
  const url = request.url ?? '/';
  if (request.method === 'GET') {
    if (url === '/stats') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ requests, streams, bytes_in: bytesIn }));
      return;
    }
    response.writeHead(url === '/health' ? 200 : 404, { 'content-type': 'text/plain' });
    response.end(url === '/health' ? 'ok' : 'not found');
    return;
  }
  const kind = url.startsWith('/v1/chat/completions') ? 'chat'
    : url.startsWith('/v1/messages') ? 'messages'
      : url.startsWith('/v1/images/generations') && pngBase64 !== '' ? 'images' : undefined;
  let head = '';
  let tail = '';
  request.setEncoding('latin1');
  request.on('data', (piece) => {
    bytesIn += piece.length;
    if (head.length < edgeBytes) head += piece.slice(0, edgeBytes - head.length);
    tail = (tail + piece).slice(-edgeBytes);
  });
  request.on('end', () => {
    requests++;
    if (kind === undefined) {
      response.writeHead(404, jsonHeaders(notFound.length));
      response.end(notFound);
      return;
    }
    const edges = head + '\n' + tail;
    if (kind === 'images') {
      const answer = imagesAnswer(Math.min(10, Math.max(1, Number(countPattern.exec(edges)?.[1] ?? 1))));
      response.writeHead(200, jsonHeaders(answer.length));
      response.end(answer);
      return;
    }
    if (!streamPattern.test(edges)) {
      if (kind === 'chat') { response.writeHead(200, chatHeaders); response.end(chatBody); }
      else { response.writeHead(200, messageHeaders); response.end(messageBody); }
      return;
    }
    const delayMs = Number(delayPattern.exec(edges)?.[1] ?? defaultDelayMs);
    const count = Math.max(5, Number(chunksPattern.exec(edges)?.[1] ?? defaultChunks));
    sendStream(response, streamFor(kind, count, kind === 'chat' && usagePattern.test(edges)), delayMs);
  });
});
server.keepAliveTimeout = 120_000; // clients pool connections: never drop one mid-run
server.headersTimeout = 121_000;
server.requestTimeout = 0;
server.maxHeadersCount = 0;
server.listen(port, host, () => {
  process.stdout.write(`fake upstream on http://${host}:${port} chunks=${defaultChunks} delay=${defaultDelayMs}ms chat=${chatBody.length}B messages=${messageBody.length}B png=${pngBytes}B (base64 ${pngBase64.length}B)\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
