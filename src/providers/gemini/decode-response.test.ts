import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { decodeGeminiResponse } from './decode-response.js';
import { makeRequest } from './gemini.test-support.js';
import { readJsonFixture } from '../../../test/support/fixtures.js';

function asRecord(value: unknown): Record<string, unknown> {
  return value as Record<string, unknown>;
}

describe('decodeGeminiResponse on recorded answers', () => {
  it('reads a text answer with its thought signature, finish and usage (google-text.json)', () => {
    const response = decodeGeminiResponse(readJsonFixture('google/generate-content/google-text.json'), makeRequest());
    expect(response.id).toBe('Un6LacrVMcjUxs0PmJfWoQc');
    expect(response.model).toBe('gemini-3-pro-preview');
    expect(response.content).toHaveLength(1);
    const part = response.content[0];
    expect(part?.type).toBe('text');
    expect(part?.type === 'text' && part.text).toBe(
      "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.",
    );
    expect(part?.type === 'text' && part.blob?.provider).toBe('gemini');
    expect(part?.type === 'text' && part.blob?.value.startsWith('EtoFCtcFAb4')).toBe(true);
    expect(response.finish).toEqual({ reason: 'stop', raw: 'STOP' });
    expect(response.usage).toEqual({ inputUncached: 9, cacheRead: 0, cacheWrite: 0, output: 28, reasoning: 244 });
  });

  it.each([
    ['google-reasoning', 282],
    ['google-reasoning-gemini3', 258],
  ])('counts thought tokens apart from visible output (%s.json)', (name, thoughts) => {
    const response = decodeGeminiResponse(readJsonFixture(`google/generate-content/${name}.json`), makeRequest());
    expect(response.usage).toEqual({ inputUncached: 9, cacheRead: 0, cacheWrite: 0, output: 29, reasoning: thoughts });
    expect(response.content.map((part) => part.type)).toEqual(['text']);
    expect(response.content[0]?.type === 'text' && response.content[0].blob?.provider).toBe('gemini');
  });

  it.each([
    ['google-tool-call', 'm36LaZGyCLz1xs0PtNSB-QU', 893, 'EskgCsYgAb4'],
    ['google-tool-call-gemini3', 'JniLacKqGqH0xs0P0O776As', 1801, 'Eqo+Cqc+Ab4'],
  ])('reads a function call as a tool call with a minted id and its signature (%s.json)', (name, responseId, thoughts, signature) => {
    const response = decodeGeminiResponse(readJsonFixture(`google/generate-content/${name}.json`), makeRequest());
    expect(response.content).toHaveLength(1);
    const call = response.content[0];
    expect(call?.type).toBe('tool-call');
    if (call?.type !== 'tool-call') return;
    expect(call.name).toBe('weather');
    expect(JSON.parse(call.arguments)).toEqual({ location: 'San Francisco' });
    expect(call.id).toBe(`call_${responseId}_0`);
    expect(call.blob?.provider).toBe('gemini');
    expect(call.blob?.value.startsWith(signature)).toBe(true);
    expect(response.finish).toEqual({ reason: 'tool-calls', raw: 'STOP' });
    expect(response.usage).toEqual({ inputUncached: 29, cacheRead: 0, cacheWrite: 0, output: 15, reasoning: thoughts });
    expect(response.extensions?.gemini?.finishMessage).toBe('Model generated function call(s).');
  });
});

describe('decodeGeminiResponse usage and finish edge cases', () => {
  it('splits cached prompt tokens out of the prompt and counts tool-use prompt tokens as input', () => {
    const body = asRecord(readJsonFixture('google/generate-content/google-text.json'));
    const usageMetadata = { ...asRecord(body.usageMetadata), promptTokenCount: 1000, cachedContentTokenCount: 600, toolUsePromptTokenCount: 40 };
    const response = decodeGeminiResponse({ ...body, usageMetadata }, makeRequest());
    expect(response.usage).toEqual({ inputUncached: 440, cacheRead: 600, cacheWrite: 0, output: 28, reasoning: 244 });
  });

  it('reports a prompt blocked before generation as content-filter', () => {
    const response = decodeGeminiResponse(
      { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 }, modelVersion: 'gemini-2.5-flash' },
      makeRequest(),
    );
    expect(response.content).toEqual([]);
    expect(response.finish).toEqual({ reason: 'content-filter', raw: 'PROHIBITED_CONTENT' });
    expect(response.usage.inputUncached).toBe(12);
    expect(response.extensions?.gemini?.promptFeedback).toEqual({ blockReason: 'PROHIBITED_CONTENT' });
  });

  it('maps MAX_TOKENS to length', () => {
    const body = asRecord(readJsonFixture('google/generate-content/google-text.json'));
    const candidates = [{ ...asRecord((body.candidates as unknown[])[0]), finishReason: 'MAX_TOKENS' }];
    expect(decodeGeminiResponse({ ...body, candidates }, makeRequest()).finish).toEqual({ reason: 'length', raw: 'MAX_TOKENS' });
  });

  it('turns a call to a custom tool back into raw text input', () => {
    const request = makeRequest({ tools: [{ type: 'custom', name: 'apply_patch' }] });
    const body = {
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'apply_patch', args: { input: '*** Begin Patch' } } }] }, finishReason: 'STOP' }],
      responseId: 'r1',
    };
    const call = decodeGeminiResponse(body, request).content[0];
    expect(call).toMatchObject({ type: 'tool-call', kind: 'custom', name: 'apply_patch', arguments: '*** Begin Patch', id: 'call_r1_0' });
  });

  it('keeps the id Gemini gave a function call and numbers several calls apart', () => {
    const body = {
      candidates: [
        {
          content: { parts: [{ functionCall: { name: 'a', args: {}, id: 'given-id' } }, { functionCall: { name: 'b' } }, { functionCall: { name: 'c', args: { n: 1 } } }] },
          finishReason: 'STOP',
        },
      ],
      responseId: 'resp',
    };
    const ids = decodeGeminiResponse(body, makeRequest()).content.map((part) => (part.type === 'tool-call' ? [part.id, part.arguments] : []));
    expect(ids).toEqual([['given-id', '{}'], ['call_resp_0', '{}'], ['call_resp_1', '{"n":1}']]);
  });

  it('refuses a body that is not a GenerateContentResponse', () => {
    expect(() => decodeGeminiResponse({ candidates: 'nope' }, makeRequest())).toThrow(GatewayError);
    try {
      decodeGeminiResponse({ candidates: 'nope' }, makeRequest());
    } catch (error) {
      expect((error as GatewayError).code).toBe('upstream_invalid_response');
    }
  });
});
