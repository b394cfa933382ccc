// Micro-benchmarks of the request side of a passed-through chat call and of the answer's usage
// scan, each timed over many calls on the bodies bench/run.mjs sends (chat_c64) and the answer its
// fake upstream gives. Reads a compiled copy of the gateway: `npm run build` (dist/), or any
// directory holding the same tree (DIST=/path/to/it).
//
//   npm run build && node bench/request-side.mjs [iterations]
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { chatBody, messagesBody, responsesBody } from './lib/bodies.mjs';

const dist = path.resolve(process.env.DIST ?? new URL('../dist', import.meta.url).pathname);
const load = (file) => import(pathToFileURL(path.join(dist, file)).href);
const iterations = Number(process.argv[2] ?? 100_000);

const { parseJsonObject } = await load('http/read-request-body.js');
const { checkRequestJson } = await load('json/check-request-json.js');
const { chatFormat } = await load('formats/chat/index.js');
const { messagesFormat } = await load('formats/messages/index.js');
const { responsesFormat } = await load('formats/responses/index.js');
const { presentedKey } = await load('http/authenticate.js');
const { ApiKeyVerifier } = await load('keys/api-key-verifier.js');
const { hashApiKey, mintApiKeySecret } = await load('keys/api-key-secret.js');
const { usageFromBytes } = await load('passthrough/usage-from-bytes.js');

const requestText = chatBody('gpt-4o-mini', false);
// The chat answer bench/fake-upstream.mjs sends (usage before two more top-level members).
const answerText = 'Sure. Here is a short overview of how an API gateway sits between an application and a model provider. '.repeat(6);
const answer = Buffer.from(JSON.stringify({
  id: 'chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz012', object: 'chat.completion', created: 1731000000, model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', content: answerText, refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: {
    prompt_tokens: 42, completion_tokens: 118, total_tokens: 160,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  },
  service_tier: 'default', system_fingerprint: 'fp_0ba0d124f1',
}));

const secret = mintApiKeySecret();
const record = {
  id: 'key_bench', name: 'bench', prefix: secret.slice(0, 9), hash: hashApiKey(secret), scopes: { endpoints: null, models: null }, admin: false,
  budgetNanoUsd: null, dailyBudgetNanoUsd: null, monthlyBudgetNanoUsd: null, rpm: null, tpm: null, concurrency: null,
  createdAt: new Date(), revokedAt: null, expiresAt: null, lastUsedAt: null, previousHash: null, previousHashExpiresAt: null,
};
const store = { findByHash: async (hash) => (hash === record.hash ? record : undefined), anyExists: async () => true };
const verifier = new ApiKeyVerifier(store, 60_000);
const headerValues = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
const headers = { get: (name) => headerValues[name] ?? null };
const parsed = parseJsonObject(requestText);
// What parseJsonObject hands the check (a build before it took the count ignores it).
const memberCount = Object.keys(parsed).length;
const context = { format: chatFormat };

/** Runs `body` `iterations` times after a warm-up; µs per call (the best of five rounds). */
async function time(name, body) {
  for (let index = 0; index < Math.min(iterations, 20_000); index++) await body();
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    for (let index = 0; index < iterations; index++) await body();
    best = Math.min(best, ((performance.now() - start) * 1000) / iterations);
  }
  console.log(`${name.padEnd(34)} ${best.toFixed(3)} µs per call`);
}

const only = process.env.ONLY === undefined ? undefined : new RegExp(process.env.ONLY);
const timeSome = (name, body) => (only === undefined || only.test(name) ? time(name, body) : undefined);
let sink;
await timeSome('presentedKey', () => { sink = presentedKey(headers); });
await timeSome('hashApiKey', () => { sink = hashApiKey(secret); });
await timeSome('ApiKeyVerifier.verify (cached)', () => verifier.verify(secret).then((found) => { sink = found; }));
await timeSome('checkRequestJson', () => { checkRequestJson(requestText, memberCount); });
await timeSome('parseJsonObject', () => { sink = parseJsonObject(requestText); });
await timeSome('chat decodeRequest', () => { sink = chatFormat.decodeRequest(parsed); });
const messagesParsed = JSON.parse(messagesBody('claude-3-5-haiku-latest', false));
const responsesParsed = JSON.parse(responsesBody('gpt-4o-mini', false));
await timeSome('messages decodeRequest', () => { sink = messagesFormat.decodeRequest(messagesParsed); });
await timeSome('responses decodeRequest', () => { sink = responsesFormat.decodeRequest(responsesParsed); });
await timeSome('parse + decode', () => { sink = chatFormat.decodeRequest(parseJsonObject(requestText)); });
await timeSome('usageFromBytes (chat answer)', () => { sink = usageFromBytes(context, answer); });
if (sink === 'never') console.log(sink);
