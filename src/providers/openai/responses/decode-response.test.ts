import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../errors/gateway-error.js';
import { decodeResponsesResponse } from './decode-response.js';
import { readJsonFixture } from '../../../../test/support/fixtures.js';

describe('Responses body decoding', () => {
  it('decodes the Azure text response with exact usage', () => {
    const response = decodeResponsesResponse(readJsonFixture('openai/responses/azure-text.1.json'));
    expect(response).toMatchObject({ model: 'gpt-5.1', content: [{ type: 'text', text: 'Word' }], finish: { reason: 'stop', raw: 'completed' } });
    expect(response.id.startsWith('resp_')).toBe(true);
    expect(response.usage).toEqual({ inputUncached: 11, cacheRead: 0, cacheWrite: 0, output: 11, reasoning: 0 });
  });

  it('reads cache writes, which input_tokens includes', () => {
    const body = readJsonFixture('openai/responses/azure-text.1.json') as { usage: { input_tokens_details: Record<string, number> } };
    body.usage.input_tokens_details['cache_write_tokens'] = 4;
    expect(decodeResponsesResponse(body).usage).toEqual({ inputUncached: 7, cacheRead: 0, cacheWrite: 4, output: 11, reasoning: 0 });
  });

  it('decodes a function call with both of its ids', () => {
    const response = decodeResponsesResponse(readJsonFixture('openai/responses/azure-tool-call.1.json'));
    expect(response.content).toEqual([
      {
        type: 'tool-call',
        id: 'call_YunNGbIwdVJ2i0y0Mybva4Pw',
        name: 'weather',
        arguments: '{"location":"San Francisco"}',
        itemId: 'fc_0a2fa1b539ba14ba00698c519ebab0819494302fc0b5c31440',
      },
    ]);
    expect(response.finish).toEqual({ reason: 'tool-calls', raw: 'completed' });
    expect(response.usage).toEqual({ inputUncached: 45, cacheRead: 0, cacheWrite: 0, output: 24, reasoning: 0 });
  });

  it('keeps the encrypted reasoning as an OpenAI blob and separates reasoning tokens', () => {
    const body = readJsonFixture('openai/responses/openai-reasoning-encrypted-content.1.json') as {
      output: { id: string; encrypted_content?: string; summary: { text: string }[] }[];
    };
    const response = decodeResponsesResponse(body);
    const item = body.output[0];
    expect(response.content[0]).toEqual({ type: 'reasoning', text: item?.summary[0]?.text, blob: { provider: 'openai', value: item?.encrypted_content }, itemId: item?.id });
    expect(response.content[1]).toMatchObject({ type: 'text', text: expect.stringContaining('Final result: 570') });
    expect(response.usage).toEqual({ inputUncached: 865, cacheRead: 0, cacheWrite: 0, output: 35, reasoning: 128 });
  });

  it('keeps hosted tool items in extensions and leaves out empty reasoning', () => {
    const response = decodeResponsesResponse(readJsonFixture('openai/responses/openai-web-search-tool.1.json'));
    expect(response.content.map((part) => part.type)).toEqual(['text']);
    const hosted = response.extensions?.['openai']?.['hostedOutput'];
    expect(Array.isArray(hosted) && hosted.every((item: { type?: string }) => item.type === 'web_search_call')).toBe(true);
    expect(response.usage).toEqual({ inputUncached: 19681 - 3712, cacheRead: 3712, cacheWrite: 0, output: 3773 - 3136, reasoning: 3136 });
  });

  it('decodes the image generation response (empty message, image call in extensions)', () => {
    const response = decodeResponsesResponse(readJsonFixture('openai/responses/openai-image-generation-tool.1.json'));
    expect(response.content).toEqual([]);
    expect(response.extensions?.['openai']?.['hostedOutput']).toMatchObject([{ type: 'image_generation_call' }]);
    expect(response.usage).toEqual({ inputUncached: 3151, cacheRead: 0, cacheWrite: 0, output: 50, reasoning: 1920 });
  });

  it('maps incomplete and failed responses', () => {
    expect(
      decodeResponsesResponse({ status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: [] }).finish,
    ).toEqual({ reason: 'content-filter', raw: 'content_filter' });
    expect(() => decodeResponsesResponse({ status: 'failed', error: { code: 'server_error', message: 'down' }, output: [] })).toThrow(GatewayError);
    expect(() => decodeResponsesResponse({ error: { message: 'x' } })).toThrow(/without output/);
  });
});
