import { describe, expect, it } from 'vitest';
import type { IrRequest } from '../../../ir/index.js';
import type { UpstreamTarget } from '../../provider-adapter.js';
import { createOpenAIChatAdapter } from '../openai-adapters.js';

const target: UpstreamTarget = {
  providerName: 'openai',
  kind: 'openai',
  baseUrl: 'https://api.example.test/v1',
  apiKey: 'sk-test',
  model: 'gpt-upstream',
  headers: { 'openai-organization': 'org-1' },
};

const request: IrRequest = {
  model: 'public-model',
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'Be brief.' }], developer: true },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Weather here?' },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBOR' }, detail: 'low' },
      ],
      name: 'ann',
    },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'thinking…', blob: { provider: 'anthropic', value: 'sig' } },
        { type: 'text', text: 'Checking.' },
        { type: 'tool-call', id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
        { type: 'tool-call', id: 'call_2', name: 'time', arguments: '' },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', callId: 'call_1', content: 'sunny' },
        { type: 'tool-result', callId: 'call_2', content: [{ type: 'text', text: '12:00' }, { type: 'image', source: { kind: 'url', url: 'https://img.test/a.png' } }] },
      ],
    },
  ],
  tools: [
    { type: 'function', name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
    { type: 'custom', name: 'patch', format: { type: 'text' } },
    { type: 'hosted', name: 'web_search_20250305', format: 'messages', definition: { type: 'web_search_20250305', name: 'web_search' } },
  ],
  toolChoice: { type: 'tool', name: 'weather' },
  parallelToolCalls: false,
  params: { maxOutputTokens: 256, temperature: 0.2, topP: 0.9, stop: ['END'], seed: 7, frequencyPenalty: 0.1, presencePenalty: 0.2 },
  reasoning: { effort: 'low' },
  responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
  stream: true,
  user: 'user-1',
  metadata: { team: 'a' },
  extensions: { chat: { stream_options: { include_usage: false, include_obfuscation: false }, store: false, service_tier: 'flex' }, messages: { context_management: {} } },
};

describe('openai chat buildRequest', () => {
  it('builds the chat body, URL and headers for a representative request', () => {
    const built = createOpenAIChatAdapter('openai').text.buildRequest(request, target, {});
    expect(built.url).toBe('https://api.example.test/v1/chat/completions');
    expect(built.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-test', 'openai-organization': 'org-1' });
    expect(JSON.parse(built.body)).toEqual({
      store: false,
      service_tier: 'flex',
      model: 'gpt-upstream',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        {
          role: 'user',
          name: 'ann',
          content: [
            { type: 'text', text: 'Weather here?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR', detail: 'low' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
            { id: 'call_2', type: 'function', function: { name: 'time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: '12:00' },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://img.test/a.png' } }] },
      ],
      tools: [
        { type: 'function', function: { name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true } },
        { type: 'custom', custom: { name: 'patch', format: { type: 'text' } } },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
      stop: ['END'],
      temperature: 0.2,
      top_p: 0.9,
      frequency_penalty: 0.1,
      presence_penalty: 0.2,
      seed: 7,
      max_completion_tokens: 256,
      reasoning_effort: 'low',
      user: 'user-1',
      metadata: { team: 'a' },
      stream: true,
      stream_options: { include_usage: true, include_obfuscation: false },
    });
  });

  it('uses max_tokens for openai-compatible upstreams and omits stream fields when not streaming', () => {
    const body = JSON.parse(createOpenAIChatAdapter('openai-compatible').text.buildRequest({ ...request, stream: false }, { ...target, apiKey: undefined }, {}).body) as Record<string, unknown>;
    expect(body['max_tokens']).toBe(256);
    expect(body['max_completion_tokens']).toBeUndefined();
    expect(body['stream']).toBeUndefined();
    expect(body['stream_options']).toBeUndefined();
  });

  it('sends no authorization header when the provider has no key', () => {
    const headers = createOpenAIChatAdapter('openai-compatible').text.buildRequest(request, { ...target, apiKey: undefined, headers: undefined }, {}).headers;
    expect(headers).toEqual({ 'content-type': 'application/json' });
  });

  it('gives a custom tool choice the custom shape and drops tool_choice when no tool survives', () => {
    const adapter = createOpenAIChatAdapter('openai');
    const custom = JSON.parse(adapter.text.buildRequest({ ...request, toolChoice: { type: 'tool', name: 'patch' } }, target, {}).body) as Record<string, unknown>;
    expect(custom['tool_choice']).toEqual({ type: 'custom', custom: { name: 'patch' } });
    const onlyHosted = JSON.parse(adapter.text.buildRequest({ ...request, tools: request.tools?.slice(2) }, target, {}).body) as Record<string, unknown>;
    expect(onlyHosted['tools']).toBeUndefined();
    expect(onlyHosted['tool_choice']).toBeUndefined();
    expect(onlyHosted['parallel_tool_calls']).toBeUndefined();
  });

  it('names the passthrough URLs and headers', () => {
    const adapter = createOpenAIChatAdapter('openai');
    expect(adapter.text.passthroughUrl('chat', target, false)).toBe('https://api.example.test/v1/chat/completions');
    expect(adapter.text.passthroughUrl('responses', target, false)).toBe('https://api.example.test/v1/responses');
    expect(adapter.upstreamHeaders(target, {})).toMatchObject({ authorization: 'Bearer sk-test', 'openai-organization': 'org-1' });
    expect(adapter.text.nativeFormats).toEqual(['chat']);
  });
});
