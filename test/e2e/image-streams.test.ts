import OpenAI, { APIError } from 'openai';
import type { ImageEditStreamEvent, ImageGenStreamEvent } from 'openai/resources/images';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { startSimulator, type SimulatorHandle } from '../../src/sim/index.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { ssePieces } from '../support/sse.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';

/**
 * `stream: true` on the images endpoint (docs/api.md, "Images") as the `openai` SDK reads it: the
 * simulator's own stream relayed, a Gemini upstream's whole answer played out as the same events,
 * one ledger entry per call billing the images completed.
 */

let gateway: TestGateway;
let simulator: SimulatorHandle;
let upstream: ScriptedUpstream;
let client: OpenAI;
let ledgerEntries = 0;

/** The price of one low-quality square image of the simulator's model, in nano-USD. */
const lowSquareNanoUsd = 10_000_000n;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0 });
  upstream = await startScriptedUpstream();
  const base = defaultConfig({}) as { providers: Record<string, unknown>; models: Array<Record<string, unknown>> };
  const simImage = base.models.find((model) => model.id === 'sim-image') as Record<string, unknown>;
  gateway = await startTestGateway({
    providers: {
      ...base.providers,
      'paced-sim': { type: 'openai', base_url: `${simulator.url}/v1` },
      recorded: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'upstream-secret' },
    },
    models: [
      ...base.models,
      // The simulator's image model on a simulator this test can watch, to see its stream closed.
      { ...simImage, id: 'watched-image', legacy_aliases: [], routes: [{ provider: 'paced-sim', model: 'sim-image' }] },
      { id: 'recorded-image', output_modality: 'image', routes: [{ provider: 'recorded', model: 'gpt-image-1' }] },
      // Gemini has no image stream: the gateway streams its whole answer itself.
      { id: 'gemini-image', output_modality: 'image', routes: [{ provider: 'sim-gemini', model: 'gemini-2.5-flash-image' }], image: { streaming: true } },
    ],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await simulator.close();
  await upstream.close();
});

async function nextLedgerEntry(): Promise<Awaited<ReturnType<typeof waitForLedgerEntry>>> {
  ledgerEntries += 1;
  return waitForLedgerEntry(gateway, ledgerEntries);
}

async function dimensionsOf(base64: string): Promise<string> {
  const metadata = await sharp(Buffer.from(base64, 'base64')).metadata();
  return `${metadata.width}x${metadata.height}`;
}

async function collect<Event>(stream: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('streamed image generation', () => {
  it('relays the simulator stream: partial images then the completed image, per image, at the size asked', async () => {
    const stream = await client.images.generate({ model: 'sim-image', prompt: 'A lighthouse at dawn', stream: true, partial_images: 2, n: 2, size: '1536x1024', quality: 'low' });
    const events = await collect<ImageGenStreamEvent>(stream);
    expect(events.map((event) => event.type)).toEqual([
      'image_generation.partial_image',
      'image_generation.partial_image',
      'image_generation.completed',
      'image_generation.partial_image',
      'image_generation.partial_image',
      'image_generation.completed',
    ]);
    for (const event of events) expect(await dimensionsOf(event.b64_json)).toBe('1536x1024');
    const completed = events.filter((event) => event.type === 'image_generation.completed');
    expect(completed[0]).toMatchObject({ size: '1536x1024', quality: 'low', output_format: 'png' });

    const entry = await nextLedgerEntry();
    expect(entry).toMatchObject({ model: 'sim-image', endpoint: 'images', status: 200, images: 2, costNanoUsd: 2n * 15_000_000n });
    // Usage is what the completed events report, added up.
    const reportedOutput = completed.reduce((sum, event) => sum + (event.type === 'image_generation.completed' ? event.usage.output_tokens : 0), 0);
    expect(entry.output).toBe(reportedOutput);
  });

  it('plays a whole answer out as the same events when no partial images are asked', async () => {
    const stream = await client.images.generate({ model: 'sim-image', prompt: 'A lighthouse at dawn', stream: true, partial_images: 0, size: '1024x1024', quality: 'low' });
    const events = await collect<ImageGenStreamEvent>(stream);
    expect(events.map((event) => event.type)).toEqual(['image_generation.completed']);
    const [completed] = events;
    expect(completed).toMatchObject({ size: '1024x1024', quality: 'low', output_format: 'png', background: 'opaque' });
    expect(completed?.type === 'image_generation.completed' && completed.usage.output_tokens).toBeGreaterThan(0);
    expect(await dimensionsOf(completed?.b64_json ?? '')).toBe('1024x1024');
    expect(await nextLedgerEntry()).toMatchObject({ images: 1, costNanoUsd: lowSquareNanoUsd });
  });

  it('streams an edit as image_edit events', async () => {
    const picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer();
    const stream = await client.images.edit({
      model: 'sim-image',
      prompt: 'Add a red door',
      image: await OpenAI.toFile(picture, 'room.png', { type: 'image/png' }),
      stream: true,
      partial_images: 1,
      size: '1024x1024',
      quality: 'low',
    });
    const events = await collect<ImageEditStreamEvent>(stream);
    expect(events.map((event) => event.type)).toEqual(['image_edit.partial_image', 'image_edit.completed']);
    for (const event of events) expect(await dimensionsOf(event.b64_json)).toBe('1024x1024');
    expect(await nextLedgerEntry()).toMatchObject({ images: 1, costNanoUsd: lowSquareNanoUsd });
  });

  it('makes the events itself for a Gemini upstream: previews that sharpen towards the final image', async () => {
    const stream = await client.images.generate({ model: 'gemini-image', prompt: 'A lighthouse at dawn', stream: true, partial_images: 3, size: '1248x832' });
    const events = await collect<ImageGenStreamEvent>(stream);
    expect(events.map((event) => event.type)).toEqual([
      'image_generation.partial_image',
      'image_generation.partial_image',
      'image_generation.partial_image',
      'image_generation.completed',
    ]);
    expect(events.map((event) => (event.type === 'image_generation.partial_image' ? event.partial_image_index : 'final'))).toEqual([0, 1, 2, 'final']);
    for (const event of events) expect(await dimensionsOf(event.b64_json)).toBe('1248x832');
    // Each preview is nearer the final picture than the one before.
    const final = await sharp(Buffer.from(events[3]?.b64_json ?? '', 'base64')).raw().toBuffer();
    const distances = [];
    for (const event of events.slice(0, 3)) {
      const pixels = await sharp(Buffer.from(event.b64_json, 'base64')).raw().toBuffer();
      let distance = 0;
      for (let index = 0; index < pixels.length; index += 1) distance += Math.abs((pixels[index] ?? 0) - (final[index] ?? 0));
      distances.push(distance);
    }
    expect(distances[0]).toBeGreaterThan(distances[1] ?? 0);
    expect(distances[1]).toBeGreaterThan(distances[2] ?? 0);
    expect(events[3]).toMatchObject({ size: '1248x832', output_format: 'png' });
    const entry = await nextLedgerEntry();
    expect(entry).toMatchObject({ model: 'gemini-image', provider: 'sim-gemini', images: 1, costNanoUsd: 39_000_000n });
  });

  it('refuses response_format url with a stream, naming the parameter, and charges nothing', async () => {
    const refused = await client.images
      .generate({ model: 'sim-image', prompt: 'A lighthouse', stream: true, response_format: 'url' })
      .then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(APIError);
    expect(refused).toMatchObject({ status: 400, param: 'response_format' });
  });

  it('answers an upstream failure before the first event as an HTTP error, billed at 0', async () => {
    const stream = await client.images.generate({ model: 'sim-image', prompt: 'A lighthouse [error:503]', stream: true, partial_images: 1 }).then(
      (events) => collect(events),
      (error: unknown) => error,
    );
    // A failure before the first event is still an HTTP error.
    expect(stream).toMatchObject({ status: 503 });
    expect(await nextLedgerEntry()).toMatchObject({ images: 0, costNanoUsd: 0n });
  });

  it('stops the upstream when the client goes away and bills only the images completed', async () => {
    const controller = new AbortController();
    const stream = await client.images.generate(
      { model: 'watched-image', prompt: 'A lighthouse [pace:300]', stream: true, partial_images: 1, n: 3, size: '1024x1024', quality: 'low' },
      { signal: controller.signal },
    );
    const seen: string[] = [];
    try {
      for await (const event of stream) {
        seen.push(event.type);
        if (event.type === 'image_generation.completed') controller.abort();
      }
    } catch {
      // Whether the SDK ends the loop or throws on abort does not matter here.
    }
    expect(seen).toEqual(['image_generation.partial_image', 'image_generation.completed']);
    const abortedAt = Date.now();
    while (simulator.activeStreams() > 0 && Date.now() - abortedAt < 2_000) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(simulator.activeStreams()).toBe(0);
    // The four events still to come would have taken 1.2 s more.
    expect(Date.now() - abortedAt).toBeLessThan(1_000);
    expect(await nextLedgerEntry()).toMatchObject({ model: 'watched-image', images: 1, costNanoUsd: lowSquareNanoUsd });
  });

  it('ends a stream the upstream breaks off with an error event, which the SDK raises, and bills nothing', async () => {
    const partial = { type: 'image_generation.partial_image', b64_json: 'AAAA', created_at: 1, size: '1024x1024', quality: 'low', output_format: 'png', background: 'opaque', partial_image_index: 0 };
    upstream.reply({ contentType: 'text/event-stream', pieces: ssePieces([{ event: 'image_generation.partial_image', data: partial }]) });
    const stream = await client.images.generate({ model: 'recorded-image', prompt: 'A lighthouse', stream: true, partial_images: 1, size: '1024x1024', quality: 'low' });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().then(() => undefined, (error: unknown) => error);
    expect(seen).toEqual(['image_generation.partial_image']);
    expect(failure).toBeInstanceOf(APIError);
    expect(failure).toMatchObject({ type: 'api_error', code: 'upstream_invalid_response' });
    expect(await nextLedgerEntry()).toMatchObject({ model: 'recorded-image', images: 0, costNanoUsd: 0n });
  });
});
