import type { Metadata } from 'sharp';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { postJson, readFixtureJson, sseJson, useSimulator } from '../sim.test-support.js';

const sim = useSimulator();

interface Prediction {
  bytesBase64Encoded: string;
  mimeType: string;
}
interface GeminiPart {
  text?: string;
  inlineData?: { mimeType: string; data: string };
}
interface GeminiImageAnswer {
  candidates: Array<{ content?: { parts: GeminiPart[]; role: string }; finishReason?: string }>;
  usageMetadata: {
    promptTokenCount: number;
    candidatesTokenCount: number;
    totalTokenCount: number;
    candidatesTokensDetails?: Array<{ modality: string; tokenCount: number }>;
    promptTokensDetails: Array<{ modality: string; tokenCount: number }>;
  };
  modelVersion: string;
}

async function metadataOf(base64: string): Promise<Metadata> {
  return sharp(Buffer.from(base64, 'base64')).metadata();
}

async function predict(body: unknown): Promise<Response> {
  return postJson(`${sim.url}/v1beta/models/imagen-4.0-generate-001:predict`, body);
}

describe('simulator: Imagen predict', () => {
  it('answers sampleCount predictions at the aspect ratio size, shaped like the recorded answer', async () => {
    const response = await predict({ instances: [{ prompt: 'a robot holding a skateboard' }], parameters: { sampleCount: 2, aspectRatio: '16:9' } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { predictions: Prediction[] };
    const recorded = readFixtureJson('google/images/cookbook-imagen-rest.predict.json') as { predictions: Array<Record<string, unknown>> };
    expect(Object.keys(body.predictions[0] ?? {})).toEqual(Object.keys(recorded.predictions[0] ?? {}));
    expect(body.predictions).toHaveLength(2);
    for (const prediction of body.predictions) {
      expect(prediction.mimeType).toBe('image/png');
      expect(await metadataOf(prediction.bytesBase64Encoded)).toMatchObject({ format: 'png', width: 1408, height: 768 });
    }
    expect(body.predictions[0]?.bytesBase64Encoded).not.toBe(body.predictions[1]?.bytesBase64Encoded);
  });

  it('defaults to four images, honours JPEG output and 2K, and is deterministic', async () => {
    const request = { instances: [{ prompt: 'snow' }], parameters: { aspectRatio: '3:4', sampleImageSize: '2K', outputOptions: { mimeType: 'image/jpeg' } } };
    const body = (await (await predict(request)).json()) as { predictions: Prediction[] };
    expect(body.predictions).toHaveLength(4);
    expect(await metadataOf(body.predictions[0]?.bytesBase64Encoded ?? '')).toMatchObject({ format: 'jpeg', width: 1792, height: 2560 });
    const again = (await (await predict(request)).json()) as { predictions: Prediction[] };
    expect(again).toEqual(body);
  });

  it('answers a bad aspect ratio with INVALID_ARGUMENT and [refuse] with no predictions', async () => {
    const bad = await predict({ instances: [{ prompt: 'x' }], parameters: { aspectRatio: '2:1' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    const refused = await predict({ instances: [{ prompt: 'x [refuse]' }], parameters: { sampleCount: 1 } });
    expect(await refused.json()).toEqual({});
  });
});

describe('simulator: Gemini image output', () => {
  const url = (model: string, method = 'generateContent') => `${sim.url}/v1beta/models/${model}:${method}`;
  const request = (text: string, generationConfig: Record<string, unknown>) => ({
    contents: [{ role: 'user', parts: [{ text }] }],
    generationConfig,
  });

  it('answers a text part and an inlineData picture with IMAGE tokens, as recorded', async () => {
    const response = await postJson(
      url('gemini-2.5-flash-image'),
      request('draw an axolotl', { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '16:9' } }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as GeminiImageAnswer;
    const parts = body.candidates[0]?.content?.parts ?? [];
    expect(parts[0]?.text).toContain('draw an axolotl');
    expect(parts[1]?.inlineData?.mimeType).toBe('image/png');
    expect(await metadataOf(parts[1]?.inlineData?.data ?? '')).toMatchObject({ format: 'png', width: 1344, height: 768 });
    expect(body.candidates[0]?.finishReason).toBe('STOP');
    expect(body.usageMetadata.candidatesTokensDetails).toContainEqual({ modality: 'IMAGE', tokenCount: 1290 });
    const usage = body.usageMetadata;
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount + usage.candidatesTokenCount);
    const recorded = readFixtureJson('google/images/pydantic-ai.gemini-2.5-flash-image.text-and-image.json');
    expect(Object.keys(body).sort()).toEqual(Object.keys(recorded).sort());
  });

  it('answers only the picture for IMAGE alone; Gemini 3 in JPEG; an input picture changes the output', async () => {
    const plain = (await (await postJson(url('gemini-3-pro-image-preview'), request('a fern', { responseModalities: ['IMAGE'] }))).json()) as GeminiImageAnswer;
    const parts = plain.candidates[0]?.content?.parts ?? [];
    expect(parts).toHaveLength(1);
    expect(await metadataOf(parts[0]?.inlineData?.data ?? '')).toMatchObject({ format: 'jpeg', width: 1024, height: 1024 });
    const input = (await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ff8800' } }).png().toBuffer()).toString('base64');
    const edit = {
      contents: [{ role: 'user', parts: [{ text: 'a fern' }, { inlineData: { mimeType: 'image/png', data: input } }] }],
      generationConfig: { responseModalities: ['IMAGE'] },
    };
    const edited = (await (await postJson(url('gemini-3-pro-image-preview'), edit)).json()) as GeminiImageAnswer;
    expect(edited.candidates[0]?.content?.parts[0]?.inlineData?.data).not.toBe(parts[0]?.inlineData?.data);
    expect(edited.usageMetadata.promptTokensDetails).toContainEqual({ modality: 'IMAGE', tokenCount: 258 });
  });

  it('streams the text then the picture over SSE', async () => {
    const response = await postJson(`${url('gemini-2.5-flash-image', 'streamGenerateContent')}?alt=sse`, request('stream a boat', { responseModalities: ['Text', 'Image'] }));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const chunks = sseJson(await response.text()) as unknown as GeminiImageAnswer[];
    expect(chunks).toHaveLength(2);
    expect(chunks[0]?.candidates[0]?.content?.parts[0]?.text).toBeDefined();
    expect(chunks[1]?.candidates[0]?.content?.parts[0]?.inlineData?.mimeType).toBe('image/png');
    expect(chunks[1]?.candidates[0]?.finishReason).toBe('STOP');
  });

  it('answers a bad aspect ratio with 400 and [refuse] with IMAGE_SAFETY, and still serves text without IMAGE', async () => {
    const bad = await postJson(url('gemini-2.5-flash-image'), request('x', { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '7:3' } }));
    expect(bad.status).toBe(400);
    const refused = (await (await postJson(url('gemini-2.5-flash-image'), request('x [refuse]', { responseModalities: ['IMAGE'] }))).json()) as GeminiImageAnswer;
    expect(refused.candidates[0]?.finishReason).toBe('IMAGE_SAFETY');
    const text = (await (await postJson(url('gemini-sim'), request('hello', {}))).json()) as GeminiImageAnswer;
    expect(text.candidates[0]?.content?.parts).toEqual([{ text: 'You said: hello' }]);
  });
});
