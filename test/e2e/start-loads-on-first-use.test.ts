import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');
const recorder = path.join(root, 'test', 'support', 'record-loaded-modules.mjs');
const youngGenerationRecorder = path.join(root, 'test', 'support', 'record-young-generation.mjs');

/**
 * What a start on the defaults loads: the text path and nothing a text call never needs. Each of
 * these is loaded on first use (a Redis in the config, a config file, an image or a video, S3,
 * the pricing dataset, a token count, PostgreSQL, an Entra ID token for Azure, a Bedrock call's
 * signature and event stream, Vertex AI credentials). They stay outside the gateway's bundle
 * (scripts/bundle-gateway.js), so a load shows as a file under node_modules.
 */
const notNeededForText = [
  'ioredis', 'yaml', 'mediabunny', 'busboy', 'sharp', '@aws-sdk/client-s3', '@pydantic/genai-prices', 'gpt-tokenizer', 'pg', '@azure/identity',
  '@smithy/signature-v4', '@smithy/eventstream-codec', '@aws-sdk/credential-provider-node', 'google-auth-library',
];

/** The packages under node_modules that a list of module URLs or paths names. */
function packagesIn(lines: readonly string[]): Set<string> {
  const packages = new Set<string>();
  for (const line of lines) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
    if (match?.[1] !== undefined) packages.add(match[1]);
  }
  return packages;
}

describe('a start on the defaults', () => {
  let workDirectory: string;
  let recordFile: string;

  beforeAll(() => {
    workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-lazy-'));
    recordFile = path.join(workDirectory, 'loaded-modules.txt');
  });
  afterAll(() => rmSync(workDirectory, { recursive: true, force: true }));

  async function startRecorded(): Promise<SpawnedGateway> {
    rmSync(recordFile, { force: true });
    return spawnGateway(process.execPath, ['--import', recorder, bin, 'serve', '--port', '0'], {
      cwd: workDirectory,
      env: zeroConfigEnvironment({ RECORD_LOADED_MODULES: recordFile, SWITCHYARD_LOG_FORMAT: 'json' }),
      urlPattern: /"url":"(http:\/\/[^"]+)"/,
    });
  }

  async function loadedAfter(
    gateway: SpawnedGateway,
    calls: (client: OpenAI, anthropic: Anthropic) => Promise<void>,
  ): Promise<{ packages: Set<string>; gatewayFiles: number; lines: string[] }> {
    try {
      await calls(new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 }), new Anthropic({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 }));
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
    const lines = [...new Set(readFileSync(recordFile, 'utf8').split('\n'))];
    return { packages: packagesIn(lines), gatewayFiles: lines.filter((line) => line.includes('/dist/') && !line.includes('node_modules/')).length, lines };
  }

  it('answers a chat completion without loading media, Redis, YAML, S3, pricing, tokenizer or PostgreSQL code', async () => {
    const gateway = await startRecorded();
    const { packages: loaded, gatewayFiles, lines } = await loadedAfter(gateway, async (client) => {
      const completion = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hello' }] });
      expect(completion.choices[0]?.message.content).toContain('hello');
    });
    // The recorder sees what a start does load, so an empty list cannot pass for a lean one.
    expect(loaded).toContain('better-sqlite3');
    expect(notNeededForText.filter((name) => loaded.has(name))).toEqual([]);
    // The gateway's own code comes bundled in a few files, not one file per source module: the
    // module loader's work per file was most of a start.
    expect(gatewayFiles).toBeGreaterThan(0);
    expect(gatewayFiles).toBeLessThan(30);
    // The simulator's media endpoints and its Bedrock and Vertex shapes are chunks of their own, loaded by their first request.
    expect(lines.filter((line) => /\/(?:media|cloud)-endpoints-[\w-]+\.js/.test(line))).toEqual([]);
    // undici's pool, without the fetch, WebSocket, cache and cookie code of its index.
    expect(lines.some((line) => line.includes('node_modules/undici/lib/dispatcher/agent.js'))).toBe(true);
    expect(lines.filter((line) => line.includes('node_modules/undici/lib/web/'))).toEqual([]);
    // Nor the token counter's own code, which a count loads.
    expect(lines.filter((line) => line.includes('o200k-counter'))).toEqual([]);
  });

  it("counts tokens locally with the gateway's own compact o200k table, loading nothing of gpt-tokenizer", async () => {
    const gateway = await startRecorded();
    const text = 'Count these words, 数えてください, and this emoji 👋🏽 too.';
    const { packages: loaded, lines } = await loadedAfter(gateway, async (_client, anthropic) => {
      // The simulator's chat model has no counting endpoint: the gateway counts the request itself.
      const counted = await anthropic.messages.countTokens({ model: 'sim-gpt', messages: [{ role: 'user', content: text }] });
      // Four framing tokens for the one message, then the text as o200k counts it.
      expect(counted.input_tokens).toBe(4 + countTokens(text));
    });
    expect(lines.some((line) => line.includes('o200k-counter'))).toBe(true);
    expect(loaded.has('gpt-tokenizer')).toBe(false);
  });

  it("keeps V8's young generation at its first size through the start", async () => {
    const sizeFile = path.join(workDirectory, 'young-generation.txt');
    const gateway = await spawnGateway(process.execPath, ['--import', youngGenerationRecorder, bin, 'serve', '--port', '0'], {
      cwd: workDirectory,
      env: zeroConfigEnvironment({ RECORD_YOUNG_GENERATION: sizeFile, SWITCHYARD_LOG_FORMAT: 'json' }),
      urlPattern: /"url":"(http:\/\/[^"]+)"/,
    });
    // Once /health answers, the command has taken over SIGTERM (it drains, then exits 0).
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
    expect(await gateway.stop()).toBe(0);
    // Two semi-spaces of 1 MB, or of 2 MB if the shutdown's own work grew them once (it may: growth
    // resumes once the gateway listens). Left to grow while the code compiles, V8 reaches 16 MB a semi-space.
    expect(Number(readFileSync(sizeFile, 'utf8'))).toBeLessThanOrEqual(4 * 1024 * 1024);
  });

  it('loads the image code on the first image call, which is answered', async () => {
    const gateway = await startRecorded();
    const { packages: loaded, lines } = await loadedAfter(gateway, async (client) => {
      const images = await client.images.generate({ model: 'sim-image', prompt: 'a lighthouse', size: '1024x1024', quality: 'low' });
      expect(images.data?.[0]?.b64_json?.length ?? 0).toBeGreaterThan(100);
    });
    expect(loaded).toContain('sharp');
    // The chunk the text call never loads is seen once its first request comes.
    expect(lines.some((line) => /\/media-endpoints-[\w-]+\.js/.test(line))).toBe(true);
  });
});
