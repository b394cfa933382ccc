import { describe, expect, it } from 'vitest';
import { postJson, sseJson, useSimulator, weatherSchema } from './sim.test-support.js';

const sim = useSimulator();

interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
}
interface GeminiChunk {
  candidates: Array<{ content: { parts: GeminiPart[]; role: string }; finishReason?: string }>;
  usageMetadata: { promptTokenCount: number; candidatesTokenCount: number; totalTokenCount: number; thoughtsTokenCount?: number };
  modelVersion: string;
}

async function streamChunks(model: string, body: unknown): Promise<GeminiChunk[]> {
  const response = await postJson(`${sim.url}/v1beta/models/${model}:streamGenerateContent?alt=sse`, body);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  return sseJson(await response.text()) as unknown as GeminiChunk[];
}

const userTurn = (text: string) => ({ role: 'user', parts: [{ text }] });
const weatherTools = [{ functionDeclarations: [{ name: 'get_weather', parameters: weatherSchema() }] }];

describe('simulator: Gemini generateContent', () => {
  it('answers generateContent with one candidate, STOP and usage', async () => {
    const response = await postJson(`${sim.url}/v1beta/models/gemini-sim:generateContent`, {
      systemInstruction: { parts: [{ text: 'sys' }] },
      contents: [userTurn('hello gemini')],
    });
    const body = (await response.json()) as GeminiChunk;
    expect(body.modelVersion).toBe('gemini-sim');
    expect(body.candidates[0]?.content).toEqual({ parts: [{ text: 'You said: hello gemini' }], role: 'model' });
    expect(body.candidates[0]?.finishReason).toBe('STOP');
    expect(body.usageMetadata).toMatchObject({
      promptTokenCount: Math.ceil(('sys'.length + 'hello gemini'.length) / 4),
      candidatesTokenCount: 4,
    });
  });

  it('streams text parts with cumulative usage and finishReason only on the last chunk', async () => {
    const chunks = await streamChunks('gemini-sim', { contents: [userTurn('one two three')] });
    const texts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts.map((part) => part.text) ?? []);
    expect(texts.join('')).toBe('You said: one two three');
    expect(chunks.length).toBeGreaterThan(3);
    const counts = chunks.map((chunk) => chunk.usageMetadata.candidatesTokenCount);
    expect(counts).toEqual([...counts].sort((left, right) => left - right));
    expect(counts.at(-1)).toBe(5);
    const finishReasons = chunks.map((chunk) => chunk.candidates[0]?.finishReason);
    expect(finishReasons.slice(0, -1).every((reason) => reason === undefined)).toBe(true);
    expect(finishReasons.at(-1)).toBe('STOP');
  });

  it('streams thought parts, counted apart, when thoughts are included', async () => {
    const chunks = await streamChunks('gemini-sim', {
      contents: [userTurn('think hard')],
      generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
    });
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    const thoughts = parts.filter((part) => part.thought === true).map((part) => part.text);
    expect(thoughts.join('')).toBe('Thinking about: think hard');
    expect(parts.at(-1)?.thoughtSignature).toMatch(/^sim-signature-[0-9a-f]{16}$/);
    const usage = chunks.at(-1)?.usageMetadata;
    expect(usage?.thoughtsTokenCount).toBe(4);
    expect(usage?.totalTokenCount).toBe((usage?.promptTokenCount ?? 0) + (usage?.candidatesTokenCount ?? 0) + 4);
  });

  it('streams a whole functionCall part with a thoughtSignature', async () => {
    const chunks = await streamChunks('gemini-sim', { contents: [userTurn('weather [tool]')], tools: weatherTools });
    const calls = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []).filter((part) => part.functionCall);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.functionCall).toEqual({ name: 'get_weather', args: { location: 'sim', days: 1, metric: true } });
    expect(calls[0]?.thoughtSignature).toMatch(/^sim-signature-/);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
  });

  it('answers a functionResponse with text', async () => {
    const response = await postJson(`${sim.url}/v1beta/models/gemini-sim:generateContent`, {
      tools: weatherTools,
      contents: [
        userTurn('weather [tool]'),
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'clear' } } }] },
      ],
    });
    const body = (await response.json()) as GeminiChunk;
    expect(body.candidates[0]?.content.parts).toEqual([{ text: 'Tool result: {"sky":"clear"}' }]);
  });

  it('finishes with MAX_TOKENS for [length]', async () => {
    const chunks = await streamChunks('gemini-sim', { contents: [userTurn('stop early [length]')] });
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('MAX_TOKENS');
  });

  it('streams a JSON array when alt=sse is not given', async () => {
    const response = await postJson(`${sim.url}/v1beta/models/gemini-sim:streamGenerateContent`, { contents: [userTurn('array')] });
    const body = (await response.json()) as GeminiChunk[];
    expect(Array.isArray(body)).toBe(true);
    expect(body.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
  });

  it('returns Google-shaped errors', async () => {
    const response = await postJson(`${sim.url}/v1beta/models/gemini-sim:generateContent`, { contents: [userTurn('[error:429]')] });
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
  });
});
