#!/usr/bin/env node
// Soak: one gateway (built dist/, zero-config simulator, SQLite in a temporary folder) under a
// steady mixed load for DURATION seconds (default 600): chat non-streamed and streamed, image
// generations, one video job a minute (polled to its end and downloaded). The gateway's RSS is
// sampled every SAMPLE_S seconds (default 5). Prints the RSS after warm-up (WARMUP_S, default 120)
// against the end (mean of the first and last minute after warm-up), the trend in %, errors and
// requests/s, then one line: SOAKJSON {...}. The trend is the change along a least-squares line
// through the samples after warm-up. Criterion: trend within ±10 %, no error.
//
// usage: npm run build && DURATION=600 node bench/soak.mjs
console.log(`gateway pid file: ${process.env.PID_FILE ?? '(none)'}`);
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const durationS = Number(process.env.DURATION ?? 600);
const warmupS = Number(process.env.WARMUP_S ?? Math.min(120, durationS / 5));
const sampleS = Number(process.env.SAMPLE_S ?? 5);
const workers = { chat: Number(process.env.CHAT_WORKERS ?? 8), stream: Number(process.env.STREAM_WORKERS ?? 8), images: Number(process.env.IMAGE_WORKERS ?? 1) };

const { defaultConfig } = await import(path.join(root, 'dist/config/default-config.js'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-soak-'));
const configFile = path.join(work, 'switchyard.json');
fs.writeFileSync(
  configFile,
  JSON.stringify({
    ...defaultConfig({}),
    database: { url: `sqlite:${path.join(work, 'switchyard.db')}` },
    content: { dir: path.join(work, 'content') },
    log: { level: 'info', format: 'json' },
  }),
);
// GATEWAY_NODE_ARGS: extra node flags for the gateway, e.g. --heapsnapshot-signal=SIGUSR2 to look for a leak.
const gatewayNodeArgs = (process.env.GATEWAY_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
const child = spawn(process.execPath, [...gatewayNodeArgs, path.join(root, 'bin/switchyard.js'), 'serve', '--config', configFile, '--port', '0'], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
if (process.env.PID_FILE) fs.writeFileSync(process.env.PID_FILE, String(child.pid));
let log = '';
child.stderr.on('data', (chunk) => (log += chunk));
const base = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${log}`)), 30_000);
  child.stdout.on('data', (chunk) => {
    log += chunk;
    const found = /"url":"(http:[^"]+)"/.exec(log) ?? /(http:\/\/127\.0\.0\.1:\d+)/.exec(log);
    if (found) {
      clearTimeout(timer);
      resolve(found[1]);
    }
  });
});
log = '';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const counts = { chat: 0, stream: 0, images: 0, videos: 0, requests: 0 };
const errors = [];
const noteError = (kind, message) => {
  if (errors.length < 20) errors.push(`${kind}: ${message}`);
  else errors.push('');
};

function request(method, urlPath, body) {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const outgoing = http.request(
      new URL(urlPath, base),
      { method, agent, headers: text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (incoming) => {
        const chunks = [];
        incoming.on('data', (chunk) => chunks.push(chunk));
        incoming.on('end', () => {
          counts.requests++;
          resolve({ status: incoming.statusCode, body: Buffer.concat(chunks).toString('utf8') });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(text);
  });
}

const endAt = Date.now() + durationS * 1000;
const running = () => Date.now() < endAt;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function loop(kind, once) {
  let n = 0;
  while (running()) {
    try {
      const problem = await once(n++);
      if (problem) noteError(kind, problem);
      else counts[kind]++;
    } catch (error) {
      noteError(kind, String(error));
    }
  }
}

const chatOnce = async (n) => {
  const answer = await request('POST', '/v1/chat/completions', { model: 'sim-gpt', messages: [{ role: 'user', content: `soak ${n} [words:40]` }] });
  return answer.status === 200 && answer.body.includes('"usage"') ? undefined : `status ${answer.status} ${answer.body.slice(0, 200)}`;
};
const streamOnce = async (n) => {
  const model = ['sim-gpt', 'sim-claude', 'sim-gemini'][n % 3];
  const answer = await request('POST', '/v1/chat/completions', { model, stream: true, messages: [{ role: 'user', content: `soak stream ${n} [words:60] [pace:5]` }] });
  return answer.status === 200 && answer.body.includes('data: [DONE]') ? undefined : `status ${answer.status} ${answer.body.slice(-200)}`;
};
const imageOnce = async (n) => {
  const answer = await request('POST', '/v1/images/generations', { model: 'sim-image', prompt: `soak image ${n}`, size: '1024x1024', quality: 'low', ...(n % 2 === 0 ? { response_format: 'url' } : {}) });
  await sleep(250);
  return answer.status === 200 ? undefined : `status ${answer.status} ${answer.body.slice(0, 200)}`;
};
const videoOnce = async (n) => {
  const startedAt = Date.now();
  const created = await request('POST', '/v1/videos', { model: 'sim-video', prompt: `soak video ${n} [video-ms:3000]`, seconds: '4', size: '1280x720' });
  if (created.status !== 200) return `create status ${created.status} ${created.body.slice(0, 200)}`;
  const id = JSON.parse(created.body).id;
  let status = 'queued';
  while (status !== 'completed' && status !== 'failed' && Date.now() - startedAt < 55_000) {
    await sleep(500);
    status = JSON.parse((await request('GET', `/v1/videos/${id}`)).body).status;
  }
  if (status !== 'completed') return `video ${id} ${status}`;
  const content = await request('GET', `/v1/videos/${id}/content`);
  if (content.status !== 200) return `content status ${content.status}`;
  // One a minute.
  await sleep(Math.max(0, Math.min(60_000 - (Date.now() - startedAt), endAt - Date.now())));
  return undefined;
};

function rssMb() {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}
const samples = [];
const startedAt = Date.now();
const sampler = setInterval(() => samples.push({ t: (Date.now() - startedAt) / 1000, rssMb: rssMb() }), sampleS * 1000);

await Promise.all([
  ...Array.from({ length: workers.chat }, () => loop('chat', chatOnce)),
  ...Array.from({ length: workers.stream }, () => loop('stream', streamOnce)),
  ...Array.from({ length: workers.images }, () => loop('images', imageOnce)),
  loop('videos', videoOnce),
]);
clearInterval(sampler);
const elapsedS = (Date.now() - startedAt) / 1000;
child.kill('SIGTERM');
const exitCode = await new Promise((resolve) => child.once('exit', (code) => resolve(code)));
fs.rmSync(work, { recursive: true, force: true });

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const after = samples.filter((sample) => sample.t >= warmupS);
const window = Math.max(1, Math.round(60 / sampleS));
const early = mean(after.slice(0, window).map((sample) => sample.rssMb));
const late = mean(after.slice(-window).map((sample) => sample.rssMb));
// The trend is a least-squares line through every sample after warm-up: RSS swings by tens of MB
// between collections, so two windows alone say more about where a collection fell than a leak.
const meanT = mean(after.map((sample) => sample.t));
const meanRss = mean(after.map((sample) => sample.rssMb));
const slope =
  after.reduce((sum, sample) => sum + (sample.t - meanT) * (sample.rssMb - meanRss), 0) / Math.max(1e-9, after.reduce((sum, sample) => sum + (sample.t - meanT) ** 2, 0));
const fittedStart = meanRss + slope * ((after[0]?.t ?? 0) - meanT);
const fittedEnd = meanRss + slope * ((after.at(-1)?.t ?? 0) - meanT);
const trendPercent = ((fittedEnd - fittedStart) / fittedStart) * 100;
const result = {
  duration_s: Math.round(elapsedS),
  warmup_s: warmupS,
  rss_mb: {
    after_warmup: Number(early.toFixed(1)),
    end: Number(late.toFixed(1)),
    peak: Number(Math.max(...samples.map((sample) => sample.rssMb)).toFixed(1)),
    fitted_start: Number(fittedStart.toFixed(1)),
    fitted_end: Number(fittedEnd.toFixed(1)),
    trend_percent: Number(trendPercent.toFixed(1)),
  },
  requests_per_s: Number((counts.requests / elapsedS).toFixed(1)),
  calls: { chat: counts.chat, chat_stream: counts.stream, images: counts.images, videos: counts.videos },
  errors: errors.length,
  first_errors: errors.slice(0, 5),
  gateway_exit_code: exitCode,
  gateway_warnings: log.split('\n').filter((line) => /"level":(4|5|6)0/.test(line)).length,
  samples: samples.map((sample) => [Math.round(sample.t), Number(sample.rssMb.toFixed(1))]),
  flat: Math.abs(trendPercent) <= 10 && errors.length === 0,
};
console.log(`soak ${result.duration_s} s: RSS ${result.rss_mb.after_warmup} MB in the first minute after warm-up → ${result.rss_mb.end} MB in the last (trend ${result.rss_mb.trend_percent} %), peak ${result.rss_mb.peak} MB; ${result.requests_per_s} requests/s; ${result.errors} errors; ${result.flat ? 'flat' : 'NOT FLAT or errors'}`);
console.log(`SOAKJSON ${JSON.stringify(result)}`);
process.exitCode = result.flat ? 0 : 1;
