import type OpenAI from 'openai';
import type { Metadata } from 'sharp';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { openAiSimulatorClient, parseSse, postJson, readFixtureJson, useSimulator } from '../sim.test-support.js';

const sim = useSimulator();
const generations = () => `${sim.url}/v1/images/generations`;

interface ImagesBody {
  created: number;
  data: Array<{ b64_json: string }>;
  background: string;
  output_format: string;
  quality: string;
  size: string;
  usage: { input_tokens: number; input_tokens_details: { text_tokens: number; image_tokens: number }; output_tokens: number; total_tokens: number };
}

async function generate(body: Record<string, unknown>): Promise<ImagesBody> {
  const response = await postJson(generations(), body);
  expect(response.status).toBe(200);
  expect(response.headers.get('x-request-id')).toMatch(/^req_sim\d{6}$/);
  return (await response.json()) as ImagesBody;
}

async function decoded(b64: string): Promise<Metadata> {
  return sharp(Buffer.from(b64, 'base64')).metadata();
}

describe('simulator: OpenAI image generations', () => {
  it('answers with the recorded shape, auto made concrete, and the published output tokens', async () => {
    const body = await generate({ model: 'gpt-image-1', prompt: 'a red bicycle' });
    const recorded = readFixtureJson('openai/images/observed-omnimaas-docs.gpt-image-1.usage.json');
    expect(Object.keys(body)).toEqual(Object.keys(recorded));
    expect(body).toMatchObject({ background: 'opaque', output_format: 'png', quality: 'medium', size: '1024x1024' });
    expect(body.usage).toEqual({
      input_tokens: 4,
      input_tokens_details: { image_tokens: 0, text_tokens: 4 },
      output_tokens: 1056,
      total_tokens: 1060,
    });
    expect(await decoded(body.data[0]?.b64_json ?? '')).toMatchObject({ format: 'png', width: 1024, height: 1024 });
  });

  it.each([
    ['png', 'transparent', '1536x1024', 'high', 6208],
    ['jpeg', 'opaque', '1024x1536', 'low', 408],
    ['webp', 'auto', '1024x1024', 'high', 4160],
  ] as const)('encodes %s (%s background) at %s, %s quality', async (format, background, size, quality, tokens) => {
    const body = await generate({ model: 'gpt-image-1.5', prompt: 'a kite', output_format: format, background, size, quality, n: 2 });
    expect(body.data).toHaveLength(2);
    expect(body.usage.output_tokens).toBe(tokens * 2);
    const [width, height] = size.split('x').map(Number);
    for (const image of body.data) {
      const metadata = await decoded(image.b64_json);
      expect(metadata).toMatchObject({ format, width, height, hasAlpha: background === 'transparent' });
    }
    expect(body.data[0]?.b64_json).not.toBe(body.data[1]?.b64_json);
  });

  it('draws the same bytes for the same prompt and other pixels for another', async () => {
    const first = await generate({ prompt: 'a green door' });
    const again = await generate({ prompt: 'a green door' });
    const other = await generate({ prompt: 'a blue window' });
    expect(again.data[0]?.b64_json).toBe(first.data[0]?.b64_json);
    const pixels = (body: ImagesBody) => sharp(Buffer.from(body.data[0]?.b64_json ?? '', 'base64')).raw().toBuffer();
    expect((await pixels(other)).equals(await pixels(first))).toBe(false);
  });

  it('accepts any multiple-of-16 size on gpt-image-2 and refuses it on earlier models', async () => {
    const body = await generate({ model: 'gpt-image-2', prompt: 'wide', size: '1920x1088' });
    expect(await decoded(body.data[0]?.b64_json ?? '')).toMatchObject({ width: 1920, height: 1088 });
    const refused = await postJson(generations(), { model: 'gpt-image-1', prompt: 'wide', size: '1920x1088' });
    expect(refused.status).toBe(400);
  });

  it('refuses response_format with the recorded body', async () => {
    const response = await postJson(generations(), { model: 'gpt-image-1', prompt: 'x', response_format: 'b64_json' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(readFixtureJson('openai/images/gpt-image-response-format-error.json'));
  });

  it.each([
    [{ n: 2 }, 'prompt', 'missing_required_parameter'],
    [{ prompt: 'x', n: 11 }, 'n', 'integer_above_max_value'],
    [{ prompt: 'x', n: 0 }, 'n', 'integer_below_min_value'],
    [{ prompt: 'x', n: '2' }, 'n', 'invalid_type'],
    [{ prompt: 'x', size: '512x512' }, 'size', 'invalid_value'],
    [{ prompt: 'x', quality: 'hd' }, 'quality', 'invalid_value'],
    [{ prompt: 'x', output_format: 'gif' }, 'output_format', 'invalid_value'],
    [{ prompt: 'x', background: 'transparent', output_format: 'jpeg' }, 'background', 'invalid_value'],
    [{ prompt: 'x', partial_images: 4 }, 'partial_images', 'integer_above_max_value'],
  ])('answers %j with a 400 naming %s', async (body, param, code) => {
    const response = await postJson(generations(), { model: 'gpt-image-1', ...body });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ type: 'invalid_request_error', param, code });
    expect(error.message).toEqual(expect.any(String));
  });

  it('refuses a [refuse] prompt as the moderation system does', async () => {
    const response = await postJson(generations(), { model: 'gpt-image-1', prompt: 'something [refuse]' });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ type: 'image_generation_user_error', code: 'moderation_blocked', param: null });
    expect(error.message).toContain('rejected by the safety system');
  });

  it('applies [error:STATUS] to image prompts too', async () => {
    const response = await postJson(generations(), { prompt: 'fail [error:503]' });
    expect(response.status).toBe(503);
  });

  it('streams partial images then the completed image, parsed by the openai SDK', async () => {
    const client = openAiSimulatorClient(sim);
    const stream = await client.images.generate({
      model: 'gpt-image-1',
      prompt: 'a paper boat',
      stream: true,
      partial_images: 2,
      size: '1536x1024',
      output_format: 'webp',
    });
    const events: OpenAI.Images.ImageGenStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'image_generation.partial_image',
      'image_generation.partial_image',
      'image_generation.completed',
    ]);
    const partials = events.filter((event) => event.type === 'image_generation.partial_image');
    expect(partials.map((event) => event.partial_image_index)).toEqual([0, 1]);
    const completed = events.at(-1);
    if (completed?.type !== 'image_generation.completed') throw new Error('no completed event');
    expect(completed).toMatchObject({ size: '1536x1024', quality: 'medium', output_format: 'webp', background: 'opaque' });
    expect(completed.usage).toMatchObject({ output_tokens: 1568, input_tokens: 3 });
    expect(completed.created_at).toEqual(expect.any(Number));
    for (const event of events) {
      expect(await decoded(event.b64_json)).toMatchObject({ format: 'webp', width: 1536, height: 1024 });
    }
    expect(partials[0]?.b64_json).not.toBe(completed.b64_json);
  });

  it('streams named SSE events with event lines', async () => {
    const response = await postJson(generations(), { prompt: 'two', stream: true, n: 2, quality: 'low' });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await response.text());
    expect(events.map((event) => event.event)).toEqual(['image_generation.completed', 'image_generation.completed']);
    const usages = events.map((event) => (JSON.parse(event.data) as ImagesBody).usage);
    expect(usages.map((usage) => usage.input_tokens)).toEqual([1, 0]);
    expect(usages.map((usage) => usage.output_tokens)).toEqual([272, 272]);
    expect(sim.activeStreams()).toBe(0);
  });
});
