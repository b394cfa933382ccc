// Memory and speed of the gateway's local token counter (src/tokens/load-encoder.ts, built into
// dist/tokens/), beside gpt-tokenizer's o200k `countTokens` it replaced, each in a fresh process:
// heap and RSS after loading and counting 1 MB of text, load time, CPU µs per count of a 2 KB text.
//   npm run build && node bench/token-counter.mjs
//   RUNS=5 node bench/token-counter.mjs
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const runs = Number(process.env.RUNS ?? '3');

/** Words of several scripts, so the text has prose, code, numbers, CJK, Arabic, emoji and marks. */
const words = [
  'the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', "isn't", 'Gateway', 'HTTPServer', 'function', '() {', 'return',
  '{"id": 42,', '"usage":', '3.14159', '2026-11-27', '1234567', '自然言語', '处理', '한국어', 'العربية', 'Привет', '👋🏽', '🇫🇷', 'e\u0301cole',
  '\n', '\n\n', '    ', '\t', '===', '->', '/usr/local/bin', 'https://example.com/a?b=c',
];

function textOf(characters, seed) {
  let state = seed;
  let text = '';
  while (text.length < characters) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    text += words[state % words.length] + (state % 3 === 0 ? '' : ' ');
  }
  return text.slice(0, characters);
}

/** Runs in the child: loads one counter, counts, reports. */
async function measure(kind) {
  const megabytes = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  const snapshot = () => {
    globalThis.gc();
    const usage = process.memoryUsage();
    return { rssMb: megabytes(usage.rss), heapMb: megabytes(usage.heapUsed), arrayBuffersMb: megabytes(usage.arrayBuffers) };
  };
  const before = snapshot();
  const loadStart = process.hrtime.bigint();
  const count =
    kind === 'compact'
      ? await (await import(pathToFileURL(path.join(benchDir, '..', 'dist', 'tokens', 'load-encoder.js')).href)).loadEncoder()
      : (await import('gpt-tokenizer/encoding/o200k_base')).countTokens;
  const firstCount = count('hello');
  const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6;
  const afterLoad = snapshot();
  const large = textOf(1024 * 1024, 7);
  const largeStart = process.hrtime.bigint();
  const largeTokens = count(large);
  const largeMs = Number(process.hrtime.bigint() - largeStart) / 1e6;
  const afterLarge = snapshot();
  const small = Array.from({ length: 200 }, (_, index) => textOf(2048, 1000 + index));
  for (const text of small) count(text);
  const rounds = 5;
  // CPU time, not wall time: on a shared machine the wall clock also counts other processes' turns.
  const smallStart = process.cpuUsage();
  for (let round = 0; round < rounds; round += 1) for (const text of small) count(text);
  const spent = process.cpuUsage(smallStart);
  const microsecondsPer2Kb = (spent.user + spent.system) / (rounds * small.length);
  return { kind, firstCount, loadMs: Math.round(loadMs), before, afterLoad, largeTokens, largeMs: Math.round(largeMs), afterLarge, microsecondsPer2Kb: Math.round(microsecondsPer2Kb) };
}

if (process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify(await measure(process.argv[3])));
} else {
  for (const kind of ['gpt-tokenizer', 'compact']) {
    for (let run = 0; run < runs; run += 1) {
      const output = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', kind], { cwd: path.join(benchDir, '..'), encoding: 'utf8' });
      const result = JSON.parse(output);
      console.log(
        `${kind.padEnd(13)} load ${String(result.loadMs).padStart(5)} ms | after load: RSS ${result.afterLoad.rssMb} MB, heap ${result.afterLoad.heapMb} MB, array buffers ${result.afterLoad.arrayBuffersMb} MB` +
          ` | 1 MB text: ${result.largeTokens} tokens in ${result.largeMs} ms, then RSS ${result.afterLarge.rssMb} MB, heap ${result.afterLarge.heapMb} MB` +
          ` | 2 KB text: ${result.microsecondsPer2Kb} µs of CPU a count | before: RSS ${result.before.rssMb} MB, heap ${result.before.heapMb} MB`,
      );
    }
  }
}
