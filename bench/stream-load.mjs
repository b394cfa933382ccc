#!/usr/bin/env node
// Streaming load client. Two modes:
//   closed loop   --concurrency C --seconds D   C workers send one stream after another for D s
//   all at once   --once N                      N streams opened together; waits until every one ends
// Per stream it records TTFB (request start → first body byte, the client's "first token") and the
// total time, and checks completeness: the format's end marker is there and at least --min-events
// SSE events arrived. Prints one line: BENCHJSON {...}.
//
// usage: stream-load.mjs --url URL --body FILE --format chat|messages|responses [--headers FILE]
//                        [--concurrency 16 --seconds 10 | --once 1000] [--min-events 40] [--timeout-s 120]
import fs from 'node:fs';
import http from 'node:http';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : fallback;
};
const url = new URL(option('--url'));
const body = fs.readFileSync(option('--body'));
const format = option('--format', 'chat');
const once = Number(option('--once', 0));
const concurrency = once > 0 ? once : Number(option('--concurrency', 16));
const seconds = Number(option('--seconds', 10));
const minEvents = Number(option('--min-events', 0));
const timeoutMs = Number(option('--timeout-s', 120)) * 1000;

/** The bytes that end a complete stream, per client format. */
const endMarkers = { chat: 'data: [DONE]', messages: 'event: message_stop', responses: 'event: response.completed' };
const endMarker = endMarkers[format];
if (endMarker === undefined) throw new Error(`unknown --format ${format}`);

const headers = { 'content-type': 'application/json', 'content-length': String(body.length), accept: 'text/event-stream' };
const headerFile = option('--headers');
if (headerFile && fs.existsSync(headerFile)) {
  for (const line of fs.readFileSync(headerFile, 'utf8').split('\n')) {
    const match = /^\s*([^:\s]+)\s*:\s*(.*?)\s*$/.exec(line);
    if (match) headers[match[1].toLowerCase()] = match[2];
  }
}
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });

const ttfbs = [];
const totals = [];
const counts = { ok: 0, status: 0, incomplete: 0, network: 0 };
let firstError = null;
let bytes = 0;
const noteError = (kind, message) => {
  counts[kind]++;
  firstError ??= message;
};

function oneStream() {
  return new Promise((resolve) => {
    const startedAt = process.hrtime.bigint();
    let firstAt = 0n;
    let events = 0;
    let previousEndedWithNewline = false;
    let tail = '';
    let sample = '';
    let sawEnd = false;
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'POST', headers, agent },
      (response) => {
        response.setEncoding('utf8');
        response.on('data', (piece) => {
          if (firstAt === 0n) firstAt = process.hrtime.bigint();
          bytes += piece.length;
          if (sample.length < 300) sample += piece.slice(0, 300 - sample.length);
          // Count blank-line event terminators without keeping the stream in memory.
          if (previousEndedWithNewline && piece[0] === '\n') events++;
          for (let at = piece.indexOf('\n\n'); at !== -1; at = piece.indexOf('\n\n', at + 2)) events++;
          previousEndedWithNewline = piece.endsWith('\n');
          // The end marker may be split across pieces, and may be followed by a long payload.
          const window = tail + piece;
          if (!sawEnd && window.includes(endMarker)) sawEnd = true;
          tail = window.slice(-200);
        });
        response.on('end', () => {
          const endedAt = process.hrtime.bigint();
          if (response.statusCode !== 200) noteError('status', `status ${response.statusCode}: ${sample}`);
          else if (!sawEnd || events < minEvents) {
            noteError('incomplete', `incomplete: ${events} events, end marker ${sawEnd}: ${tail.slice(-150)}`);
          } else {
            counts.ok++;
            ttfbs.push(Number(firstAt - startedAt) / 1e6);
            totals.push(Number(endedAt - startedAt) / 1e6);
          }
          resolve();
        });
        response.on('error', (error) => {
          noteError('network', String(error));
          resolve();
        });
      },
    );
    request.on('error', (error) => {
      noteError('network', String(error));
      setTimeout(resolve, 10);
    });
    request.setTimeout(timeoutMs, () => request.destroy(new Error('timeout')));
    request.end(body);
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Number(sorted[index].toFixed(3));
}

const started = Date.now();
if (once > 0) {
  await Promise.all(Array.from({ length: once }, () => oneStream()));
} else {
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (Date.now() < deadline) await oneStream();
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
const elapsed = (Date.now() - started) / 1000;
ttfbs.sort((a, b) => a - b);
totals.sort((a, b) => a - b);
const result = {
  streams: counts.ok,
  secs: Number(elapsed.toFixed(3)),
  rps: Number((counts.ok / elapsed).toFixed(1)),
  bytes,
  ttfb_p50_ms: percentile(ttfbs, 50), ttfb_p90_ms: percentile(ttfbs, 90), ttfb_p99_ms: percentile(ttfbs, 99), ttfb_max_ms: percentile(ttfbs, 100),
  total_p50_ms: percentile(totals, 50), total_p90_ms: percentile(totals, 90), total_p99_ms: percentile(totals, 99), total_max_ms: percentile(totals, 100),
  err_status: counts.status, err_incomplete: counts.incomplete, err_network: counts.network,
  first_error: firstError,
};
process.stdout.write('BENCHJSON ' + JSON.stringify(result) + '\n');
agent.destroy();
