import { describe, expect, it } from 'vitest';
import type { IrRequest } from '../../ir/index.js';
import { readJsonFixture } from '../../../test/support/fixtures.js';
import { decodeMessagesResponse } from './decode-response.js';

const request: IrRequest = { model: 'claude', messages: [], params: {}, stream: false, extensions: {} };

function fixture(name: string): unknown {
  return readJsonFixture(`anthropic/messages/${name}`);
}

describe('decoding recorded Messages responses', () => {
  it('decodes a text answer with exact usage', () => {
    const response = decodeMessagesResponse(fixture('anthropic-text.json'), request);
    expect(response.id).toBe('msg_01VdEjxAP5ahtHKrrRdNBteQ');
    expect(response.model).toBe('claude-sonnet-4-5-20250929');
    expect(response.content).toEqual([
      { type: 'text', text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?" },
    ]);
    expect(response.finish).toEqual({ reason: 'stop', raw: 'end_turn' });
    expect(response.usage).toEqual({ inputUncached: 12, cacheRead: 0, cacheWrite: 0, output: 29, reasoning: 0 });
  });

  it('turns thinking into reasoning with the signature as an anthropic blob and splits thinking tokens out', () => {
    const response = decodeMessagesResponse(fixture('anthropic-claude-opus-5-reasoning-high.1.json'), request);
    expect(response.content.map((part) => part.type)).toEqual(['reasoning', 'text']);
    const reasoning = response.content[0];
    expect(reasoning).toMatchObject({
      type: 'reasoning',
      text: expect.stringMatching(/^I need to find all roots/),
      blob: { provider: 'anthropic', value: expect.stringMatching(/^CAISqwQK.*AQ==$/) },
    });
    expect(response.usage).toEqual({ inputUncached: 51, cacheRead: 0, cacheWrite: 0, output: 1560, reasoning: 139 });
  });

  it('stringifies tool_use input as the call arguments', () => {
    const response = decodeMessagesResponse(fixture('anthropic-json-tool.1.json'), request);
    const call = response.content[0];
    expect(call).toMatchObject({ type: 'tool-call', id: 'toolu_01Q9ExVZnzZj7E2QQYHYtNUa', name: 'json' });
    if (call?.type !== 'tool-call') return;
    expect(JSON.parse(call.arguments)).toMatchObject({ elements: [{ location: 'San Francisco', temperature: -5 }, {}, {}, {}] });
    expect(response.finish).toEqual({ reason: 'tool-calls', raw: 'tool_use' });
    expect(response.usage).toEqual({ inputUncached: 1151, cacheRead: 0, cacheWrite: 0, output: 87, reasoning: 0 });
  });

  it('gives an empty tool input the arguments "{}"', () => {
    const response = decodeMessagesResponse(fixture('anthropic-tool-no-args.json'), request);
    expect(response.content[1]).toEqual({ type: 'tool-call', id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1', name: 'updateIssueList', arguments: '{}' });
    expect(response.usage).toEqual({ inputUncached: 602, cacheRead: 0, cacheWrite: 0, output: 93, reasoning: 0 });
  });

  it('keeps the refusal stop_details in extensions', () => {
    const response = decodeMessagesResponse(fixture('anthropic-refusal.json'), request);
    expect(response.content).toEqual([]);
    expect(response.finish).toEqual({ reason: 'refusal', raw: 'refusal' });
    expect(response.extensions?.['anthropic']?.['stop_details']).toMatchObject({ type: 'refusal', category: 'cyber' });
    expect(response.usage).toEqual({ inputUncached: 18, cacheRead: 0, cacheWrite: 0, output: 5, reasoning: 0 });
  });

  it('keeps server-tool blocks in place in extensions and citations beside their text part', () => {
    const response = decodeMessagesResponse(fixture('anthropic-web-search-tool.1.json'), request);
    expect(response.content).toHaveLength(8);
    expect(response.content.every((part) => part.type === 'text')).toBe(true);
    const anthropic = response.extensions?.['anthropic'];
    const kept = anthropic?.['content'];
    expect(kept).toEqual([
      { after: 0, block: expect.objectContaining({ type: 'server_tool_use', name: 'web_search' }) },
      { after: 0, block: expect.objectContaining({ type: 'web_search_tool_result' }) },
      { after: 1, block: expect.objectContaining({ type: 'server_tool_use', id: 'srvtoolu_01HyorfKHSCsjCUVH6WHcNUC' }) },
      { after: 1, block: expect.objectContaining({ type: 'web_search_tool_result', content: [] }) },
    ]);
    expect(anthropic?.['citations']).toEqual([
      { part: 2, citations: [expect.objectContaining({ type: 'web_search_result_location' })] },
      { part: 4, citations: [expect.objectContaining({ url: 'https://www.crescendo.ai/news/latest-ai-news-and-updates' })] },
      { part: 6, citations: [expect.objectContaining({ type: 'web_search_result_location' })] },
    ]);
    expect(anthropic?.['usage']).toMatchObject({ server_tool_use: { web_search_requests: 2 } });
    expect(response.usage).toEqual({ inputUncached: 27118, cacheRead: 0, cacheWrite: 0, output: 600, reasoning: 0 });
  });

  it('keeps a server-tool error result block instead of dropping it', () => {
    const response = decodeMessagesResponse(fixture('anthropic-web-fetch-tool.error.json'), request);
    expect(response.content.map((part) => part.type)).toEqual(['text', 'text']);
    expect(response.extensions?.['anthropic']?.['content']).toEqual([
      { after: 1, block: expect.objectContaining({ type: 'server_tool_use', name: 'web_fetch' }) },
      { after: 1, block: expect.objectContaining({ content: { type: 'web_fetch_tool_result_error', error_code: 'unavailable' } }) },
    ]);
    expect(response.usage).toEqual({ inputUncached: 1902, cacheRead: 0, cacheWrite: 0, output: 214, reasoning: 0 });
  });

  it('decodes redacted_thinking as redacted reasoning carrying the data as its blob', () => {
    const body = { type: 'message', id: 'msg_1', model: 'm', content: [{ type: 'redacted_thinking', data: 'EmwKAhgBEgy' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 2 } };
    expect(decodeMessagesResponse(body, request).content).toEqual([
      { type: 'reasoning', text: '', redacted: true, blob: { provider: 'anthropic', value: 'EmwKAhgBEgy' } },
    ]);
  });

  it('rejects a body that is not a message', () => {
    expect(() => decodeMessagesResponse({ type: 'error', error: {} }, request)).toThrow(expect.objectContaining({ code: 'upstream_invalid_response' }));
  });
});
