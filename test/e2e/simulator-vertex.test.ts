import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { startSimulator } from '../../src/sim/index.js';
import { ffprobe } from '../support/ffprobe.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { bashMessagesTool, expectChargedAtOneAndTwo, expectChatToolCalls, singleEntryOf } from '../support/simulated-cloud-calls.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * The built-in simulator speaks Vertex AI, so a `type: vertex` provider on `builtin:sim` runs
 * offline and without Google credentials: Gemini, Claude (rawPredict, its stream, count-tokens),
 * Imagen and Veo, each call metered.
 */
const price = { input_per_mtok: '1.00', output_per_mtok: '2.00' };
const veoVariants = [
  { mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4, 8], usd_per_second: '0.40' },
  { mode: 'text-to-video', resolution: '720p', aspect_ratio: '9:16', seconds: [4, 8], usd_per_second: '0.40' },
];

let gateway: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  gateway = await startTestGateway({
    content: { dir: temporaryContentDirectory() },
    videos: quickVideoSettings,
    providers: { 'vertex-sim': { type: 'vertex', base_url: 'builtin:sim', project: 'sim-project', location: 'us-east5' } },
    models: [
      { id: 'gemini-vertex', routes: [{ provider: 'vertex-sim', model: 'gemini-2.5-flash' }], price },
      { id: 'claude-vertex', routes: [{ provider: 'vertex-sim', model: 'claude-sonnet-4-5@20250929' }], price },
      { id: 'imagen-vertex', output_modality: 'image', routes: [{ provider: 'vertex-sim', model: 'imagen-4.0-generate-001' }] },
      { id: 'veo-vertex', output_modality: 'video', routes: [{ provider: 'vertex-sim', model: 'veo-3.0-generate-001' }], video: { variants: veoVariants }, price: { effective_from: '2026-01-01' } },
    ],
  });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'k', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'k', maxRetries: 0 });
});
afterAll(() => gateway.close());

async function ledgerEntries(): Promise<LedgerEntry[]> {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ limit: 10_000 });
}

describe.each([
  { model: 'gemini-vertex', upstream: 'gemini-2.5-flash' },
  { model: 'claude-vertex', upstream: 'claude-sonnet-4-5@20250929' },
])('$model on the simulator', ({ model, upstream }) => {
  it('answers a chat client, streamed and not, each call on the ledger at its price', async () => {
    const whole = await singleEntryOf(gateway, async () => {
      const answer = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello vertex' }] });
      expect(answer.choices[0]?.message.content).toBe('You said: hello vertex');
      expect(answer.choices[0]?.finish_reason).toBe('stop');
    });
    expectChargedAtOneAndTwo(whole, 'vertex-sim', upstream);
    const streamed = await singleEntryOf(gateway, async () => {
      const stream = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello vertex' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('You said: hello vertex');
    });
    expectChargedAtOneAndTwo(streamed, 'vertex-sim', upstream);
    expect(streamed.inputUncached).toBe(whole.inputUncached);
  });

  it('answers a chat client with a tool call, streamed and not', async () => {
    await expectChatToolCalls(openai, model);
  });

  it('answers a Responses client, streamed and not', async () => {
    const entry = await singleEntryOf(gateway, async () => {
      expect((await openai.responses.create({ model, input: 'hello responses' })).output_text).toBe('You said: hello responses');
    });
    expectChargedAtOneAndTwo(entry, 'vertex-sim', upstream);
    const stream = openai.responses.stream({ model, input: 'hello responses' });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('You said: hello responses');
  });

  it('answers a Messages client, streamed and not, with tools', async () => {
    const entry = await singleEntryOf(gateway, async () => {
      const message = await anthropic.messages.create({ model, max_tokens: 200, messages: [{ role: 'user', content: 'hello messages' }] });
      expect(message.content).toEqual([{ type: 'text', text: 'You said: hello messages' }]);
    });
    expectChargedAtOneAndTwo(entry, 'vertex-sim', upstream);
    const stream = anthropic.messages.stream({ model, max_tokens: 200, tools: [bashMessagesTool], messages: [{ role: 'user', content: 'run it [tool]' }] });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content.find((block) => block.type === 'tool_use')).toMatchObject({ name: 'Bash', input: { command: 'echo sim-tool-ran' } });
  });
});

describe('Claude on the simulated Vertex', () => {
  it('streams thinking to a Messages client', async () => {
    const stream = anthropic.messages.stream({ model: 'claude-vertex', max_tokens: 500, thinking: { type: 'enabled', budget_tokens: 200 }, messages: [{ role: 'user', content: 'think it over' }] });
    const final = await stream.finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(final.content[0]).toMatchObject({ thinking: 'Thinking about: think it over' });
  });

  it('counts tokens at count-tokens:rawPredict, the same figure the call reports', async () => {
    const body = { model: 'claude-vertex', messages: [{ role: 'user' as const, content: 'count these words for me please' }] };
    const counted = await anthropic.messages.countTokens(body);
    const answered = await anthropic.messages.create({ ...body, max_tokens: 100 });
    expect(counted.input_tokens).toBe(answered.usage.input_tokens);
    expect(counted.input_tokens).toBeGreaterThan(1);
  });
});

describe('media through the simulated Vertex', () => {
  it('draws an Imagen picture of the asked aspect ratio, decodable, charged per image', async () => {
    const entry = await singleEntryOf(gateway, async () => {
      const images = await openai.images.generate({ model: 'imagen-vertex', prompt: 'a lighthouse at dusk', size: '1408x768', n: 1 });
      const picture = Buffer.from(images.data?.[0]?.b64_json ?? '', 'base64');
      const metadata = await sharp(picture).metadata();
      expect(metadata).toMatchObject({ format: 'png', width: 1408, height: 768 });
    });
    // imagen-4.0-generate-001's built-in price: 0.04 USD an image.
    expect(entry).toMatchObject({ provider: 'vertex-sim', endpoint: 'images', images: 1, costNanoUsd: 40_000_000n });
  });

  it('makes a Veo video job whose MP4 ffprobe reads at the asked length and size, charged per second', async () => {
    const created = await openai.videos.create({ model: 'veo-vertex', prompt: 'a lighthouse at dusk [video-ms:600]', seconds: '4', size: '720x1280' });
    const { video } = await pollUntilDone(openai, created.id);
    expect(video.status).toBe('completed');
    const bytes = Buffer.from(await (await openai.videos.downloadContent(created.id)).arrayBuffer());
    const probed = await ffprobe(bytes);
    expect(probed).toMatchObject({ codec: 'h264', width: 720, height: 1280 });
    expect(Math.abs(probed.durationSeconds - 4)).toBeLessThan(0.1);
    const entries = (await ledgerEntries()).filter((entry) => entry.requestId === created.id);
    expect(entries).toMatchObject([{ provider: 'vertex-sim', model: 'veo-vertex', videoSeconds: 4, costNanoUsd: 1_600_000_000n }]);
  });

  it('fails a Veo job the simulator filters, free', async () => {
    const created = await openai.videos.create({ model: 'veo-vertex', prompt: 'FILTER this [video-ms:300]', seconds: '4', size: '1280x720' });
    const { video } = await pollUntilDone(openai, created.id);
    expect(video.status).toBe('failed');
    expect(video.error?.code).toBe('content_filtered');
    const entries = (await ledgerEntries()).filter((entry) => entry.requestId === created.id);
    expect(entries).toMatchObject([{ videoSeconds: 0, costNanoUsd: 0n }]);
  });
});

describe('the simulator as Vertex AI', () => {
  async function simulator(): Promise<string> {
    const running = await startSimulator();
    onTestFinished(() => running.close());
    return running.url;
  }
  const modelUrl = (url: string, publisher: string, model: string, method: string): string => `${url}/v1/projects/p/locations/us-east5/publishers/${publisher}/models/${model}:${method}`;
  const bearer = { authorization: 'Bearer any-token', 'content-type': 'application/json' };
  const claudeBody = { anthropic_version: 'vertex-2023-10-16', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] };

  it('refuses a call without a bearer token in Google\'s shape', async () => {
    const url = await simulator();
    const answer = await fetch(modelUrl(url, 'google', 'gemini-2.5-flash', 'generateContent'), { method: 'POST', body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });

  it('refuses a Claude body with a model, or without Vertex\'s anthropic_version, as Vertex does', async () => {
    const url = await simulator();
    const withModel = await fetch(modelUrl(url, 'anthropic', 'claude-sonnet-4-5', 'rawPredict'), { method: 'POST', headers: bearer, body: JSON.stringify({ ...claudeBody, model: 'claude-sonnet-4-5' }) });
    expect(withModel.status).toBe(400);
    expect(await withModel.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'model: Extra inputs are not permitted' } });
    const dated = await fetch(modelUrl(url, 'anthropic', 'claude-sonnet-4-5', 'rawPredict'), { method: 'POST', headers: bearer, body: JSON.stringify({ ...claudeBody, anthropic_version: '2023-06-01' }) });
    expect(dated.status).toBe(400);
    const countWithoutModel = await fetch(modelUrl(url, 'anthropic', 'count-tokens', 'rawPredict'), { method: 'POST', headers: bearer, body: JSON.stringify(claudeBody) });
    expect(countWithoutModel.status).toBe(400);
    const answered = await fetch(modelUrl(url, 'anthropic', 'claude-sonnet-4-5', 'rawPredict'), { method: 'POST', headers: bearer, body: JSON.stringify(claudeBody) });
    expect(await answered.json()).toMatchObject({ type: 'message', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'You said: hi' }] });
  });

  it('answers an operation it never made with 404, and a pending one with its name', async () => {
    const url = await simulator();
    const veo = (method: string, body: unknown) => fetch(modelUrl(url, 'google', 'veo-3.0-generate-001', method), { method: 'POST', headers: bearer, body: JSON.stringify(body) });
    const submitted = (await (await veo('predictLongRunning', { instances: [{ prompt: 'slow [video-ms:60000]' }], parameters: { durationSeconds: 4 } })).json()) as { name: string };
    expect(submitted.name).toMatch(/^projects\/p\/locations\/us-east5\/publishers\/google\/models\/veo-3\.0-generate-001\/operations\/[\w-]+$/);
    expect(await (await veo('fetchPredictOperation', { operationName: submitted.name })).json()).toEqual({ name: submitted.name });
    expect((await veo('fetchPredictOperation', { operationName: submitted.name.replace(/operations\/.*$/, 'operations/0c335789-eab8-405f-8642-c583e12b1ddf') })).status).toBe(404);
  });
});
