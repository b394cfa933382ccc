// Realistic ledger entries for bench/console-scale.mjs: a seeded, repeatable history of N calls
// spread over DAYS days up to `end`, in time order (as a gateway writes them), by ~50 keys over
// 20 models. Keys and models are used unevenly (Zipf-like: a few busy keys and models, a long tail),
// traffic follows the day (busier in the afternoon UTC), endpoints and statuses are mixed, and the
// image and video models carry images and video seconds. Request ids are what gateways mint: a
// per-process prefix and a counter, the prefix changing as instances restart (here once a day).

/** Mulberry32: small, fast and seedable, so every run writes the same history. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** [model, provider, kind, input $/Mtok, output $/Mtok (or $ per image / per video second)] */
const modelTable = [
  ['gpt-4o-mini', 'openai', 'text', 0.15, 0.6],
  ['claude-3-5-haiku-20241022', 'anthropic', 'text', 0.8, 4],
  ['gpt-4.1-mini', 'openai', 'text', 0.4, 1.6],
  ['claude-sonnet-4-20250514', 'anthropic', 'text', 3, 15],
  ['gpt-4o', 'openai', 'text', 2.5, 10],
  ['gemini-2.5-flash', 'gemini', 'text', 0.3, 2.5],
  ['gpt-4.1', 'openai', 'text', 2, 8],
  ['o4-mini', 'openai', 'reasoning', 1.1, 4.4],
  ['gpt-4.1-nano', 'openai', 'text', 0.1, 0.4],
  ['deepseek-chat', 'deepseek', 'text', 0.27, 1.1],
  ['gemini-2.5-pro', 'gemini', 'text', 1.25, 10],
  ['claude-3-7-sonnet-20250219', 'anthropic', 'text', 3, 15],
  ['gpt-image-1', 'openai', 'image', 0, 0.167],
  ['llama-3.3-70b-instruct', 'groq', 'text', 0.59, 0.79],
  ['o3-mini', 'openai', 'reasoning', 1.1, 4.4],
  ['mistral-large-latest', 'mistral', 'text', 2, 6],
  ['gemini-2.0-flash', 'gemini', 'text', 0.1, 0.4],
  ['dall-e-3', 'openai', 'image', 0, 0.04],
  ['claude-opus-4-20250514', 'anthropic', 'text', 15, 75],
  ['sora-2', 'openai', 'video', 0, 0.1],
];
export const benchModels = modelTable.map(([model]) => model);

/** Cumulative weights of a Zipf-like distribution over `count` items (exponent `s`). */
function zipf(count, s) {
  const weights = Array.from({ length: count }, (_, index) => 1 / (index + 1) ** s);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let running = 0;
  return weights.map((weight) => (running += weight / total));
}

function pick(cumulative, random) {
  const target = random();
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cumulative[middle] < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Log-normal around `median` (spread `sigma`), via Box–Muller. */
function logNormal(random, median, sigma) {
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return median * Math.exp(sigma * normal);
}

const minuteMs = 60_000;
const dayMs = 86_400_000;

/**
 * Yields arrays of up to `batchSize` entries, oldest first. `keyIds` are the keys' ids (busiest
 * first); `end` is the time of the newest call.
 */
export function* ledgerBatches({ total, days, keyIds, end, batchSize, seed = 1 }) {
  const random = seededRandom(seed);
  const keyWeights = zipf(keyIds.length, 1.1);
  const modelWeights = zipf(modelTable.length, 0.9);
  const minutes = days * 1440;
  const start = end - minutes * minuteMs;
  // Calls per minute follow the UTC day: three times as busy at 15:00 as at 03:00.
  const rate = (minute) => 1 + 0.5 * Math.sin((2 * Math.PI * ((minute % 1440) - 540)) / 1440);
  let weightSum = 0;
  for (let minute = 0; minute < minutes; minute += 1) weightSum += rate(minute);
  let batch = [];
  let written = 0;
  let expected = 0;
  let prefix = '';
  let counter = 0;
  let prefixDay = -1;
  for (let minute = 0; minute < minutes; minute += 1) {
    expected += (rate(minute) / weightSum) * total;
    const calls = Math.min(total, Math.round(expected)) - written;
    const minuteStart = start + minute * minuteMs;
    const offsets = Array.from({ length: calls }, () => Math.floor(random() * minuteMs)).sort((a, b) => a - b);
    for (const offset of offsets) {
      const createdAt = minuteStart + offset;
      const day = Math.floor(createdAt / dayMs);
      if (day !== prefixDay) {
        prefixDay = day;
        prefix = 'req_' + Math.floor(random() * 2 ** 48).toString(16).padStart(12, '0');
        counter = 0;
      }
      counter += 1;
      batch.push(entry(random, `${prefix}${counter.toString(16).padStart(12, '0')}`, keyIds[pick(keyWeights, random)], modelTable[pick(modelWeights, random)], createdAt));
      written += 1;
      if (batch.length === batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

function status(random) {
  const draw = random();
  if (draw < 0.955) return 200;
  if (draw < 0.975) return 429;
  if (draw < 0.985) return 400;
  if (draw < 0.993) return 502;
  if (draw < 0.997) return 500;
  return 504;
}

function entry(random, requestId, keyId, [model, provider, kind, inputPrice, outputPrice], createdAt) {
  const code = status(random);
  const delivered = code === 200;
  let endpoint = 'chat';
  let inputUncached = 0;
  let cacheRead = 0;
  let output = 0;
  let reasoning = 0;
  let images = 0;
  let videoSeconds = 0;
  let durationMs;
  let costNanoUsd = 0n;
  if (kind === 'image') {
    endpoint = 'images';
    images = delivered ? 1 + Math.floor(random() * random() * 4) : 0;
    durationMs = Math.round(logNormal(random, 9_000, 0.4));
    costNanoUsd = BigInt(Math.round(images * outputPrice * 1e9));
  } else if (kind === 'video') {
    endpoint = 'videos';
    videoSeconds = delivered ? [4, 8, 12][Math.floor(random() * 3)] : 0;
    durationMs = Math.round(logNormal(random, 120_000, 0.5));
    costNanoUsd = BigInt(Math.round(videoSeconds * outputPrice * 1e9));
  } else {
    const draw = random();
    endpoint = provider === 'anthropic' ? (draw < 0.6 ? 'messages' : draw < 0.9 ? 'chat' : 'responses') : draw < 0.7 ? 'chat' : draw < 0.85 ? 'responses' : 'messages';
    if (code !== 400 && code !== 429) {
      const input = Math.round(logNormal(random, 1_200, 1.1));
      cacheRead = random() < 0.3 ? Math.floor(input * random()) : 0;
      inputUncached = input - cacheRead;
      output = delivered ? Math.round(logNormal(random, 280, 0.9)) : 0;
      reasoning = delivered && kind === 'reasoning' ? Math.round(logNormal(random, 600, 0.8)) : 0;
    }
    durationMs = code === 429 || code === 400 ? Math.round(2 + random() * 20) : Math.round(logNormal(random, 900, 0.8));
    // $ per Mtok is nano-USD per thousandth of a token: price × 1000 nano-USD a token; cached input at a tenth.
    costNanoUsd = BigInt(Math.round((inputUncached + cacheRead / 10) * inputPrice * 1000 + (output + reasoning) * outputPrice * 1000));
  }
  return {
    requestId,
    keyId,
    model,
    provider,
    upstreamModel: model,
    endpoint,
    status: code,
    inputUncached,
    cacheRead,
    cacheWrite: 0,
    output,
    reasoning,
    images,
    videoSeconds,
    usageEstimated: delivered && random() < 0.01,
    costNanoUsd,
    createdAt: new Date(createdAt),
    durationMs,
  };
}
