import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');

/**
 * Names are the operator's to choose: a provider or model called like a property every JavaScript
 * object has (`toString`, `constructor`, `hasOwnProperty`) is an ordinary name, looked up as such.
 */
const config = `
providers:
  toString: { type: openai, base_url: "builtin:sim" }
  constructor: { type: anthropic, base_url: "builtin:sim" }
models:
  - id: valueOf
    routes: [{ provider: toString, model: sim-gpt }]
  - id: hasOwnProperty
    routes: [{ provider: constructor, model: sim-claude }]
  - id: toString
    output_modality: image
    routes: [{ provider: toString, model: sim-image }]
    image: { sizes: ["1024x1024"], qualities: [low], max_n: 1, response_formats: [b64_json] }
    price: { effective_from: "2026-01-01", per_image: { "low/1024x1024": "0.01" } }
  - id: constructor
    output_modality: video
    routes: [{ provider: toString, model: sim-video }]
    video:
      variants: [{ mode: text-to-video, resolution: 720p, aspect_ratio: "16:9", seconds: [4], usd_per_second: "0.10" }]
`;

describe('providers and models named like built-in properties', () => {
  let directory: string;
  let gateway: SpawnedGateway;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'switchyard-names-'));
    const file = path.join(directory, 'switchyard.yaml');
    writeFileSync(file, config);
    gateway = await spawnGateway(process.execPath, [bin, 'serve', '--config', file, '--port', '0'], {
      cwd: directory,
      env: zeroConfigEnvironment({ SWITCHYARD_LOG_FORMAT: 'readable', DATABASE_URL: 'sqlite::memory:' }),
      urlPattern: /^switchyard listening on (http:\/\/\S+)/m,
      startTimeoutMs: 15_000,
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('starts with every model callable under its name', async () => {
    expect(gateway.stdout()).toContain('text models: valueOf, hasOwnProperty | image models: toString | video models: constructor');
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'not-needed-yet', maxRetries: 0 });
    const listed = await client.models.list();
    expect(listed.data.map((model) => model.id)).toEqual(expect.arrayContaining(['valueOf', 'hasOwnProperty']));
  });

  it('serves text through providers named toString and constructor', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'not-needed-yet', maxRetries: 0 });
    for (const model of ['valueOf', 'hasOwnProperty']) {
      const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: `hello ${model}` }] });
      expect(completion.choices[0]?.message.content).toContain(`hello ${model}`);
    }
  });

  it('serves an image from a model named toString', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'not-needed-yet', maxRetries: 0 });
    const image = await client.images.generate({ model: 'toString', prompt: 'a lighthouse', size: '1024x1024', quality: 'low' });
    expect(image.data?.[0]?.b64_json?.length).toBeGreaterThan(100);
  });
});
