import { describe, expect, it } from 'vitest';
import type { IrRequest } from '../../ir/index.js';
import type { UpstreamTarget } from '../provider-adapter.js';
import { anthropicAdapter } from './index.js';

const target: UpstreamTarget = {
  providerName: 'anthropic-main',
  kind: 'anthropic',
  baseUrl: 'https://api.anthropic.com',
  apiKey: 'sk-ant-test-key',
  model: 'claude-sonnet-4-5-20250929',
  headers: { 'x-operator': 'yes' },
};

const signature = 'EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPViM596iWLZIk4EFKYYBj3B6Ptl3b0dcQv';

const conversation: IrRequest = {
  model: 'smart',
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'You are terse.', cacheControl: { type: 'ephemeral' } }] },
    { role: 'system', developer: true, content: [{ type: 'text', text: 'Use metric units.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Two cities, two calls.', blob: { provider: 'anthropic', value: signature } },
        { type: 'reasoning', text: '', redacted: true, blob: { provider: 'anthropic', value: 'EmwKAhgBEgy3va' } },
        { type: 'reasoning', text: 'OpenAI summary', blob: { provider: 'openai', value: 'gAAAAencrypted' } },
        { type: 'text', text: 'Checking both.' },
        { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool-call', id: 'call.2', name: 'get_weather', arguments: '' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-result', callId: 'call_1', content: '18 °C' }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', callId: 'call.2', content: [{ type: 'text', text: 'timeout' }], isError: true, cacheControl: { type: 'ephemeral', ttl: '1h' } }],
    },
    { role: 'system', content: [{ type: 'text', text: 'Answer in one line.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Summarise.' }] },
  ],
  tools: [
    {
      type: 'function',
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      cacheControl: { type: 'ephemeral' },
      extensions: { messages: { defer_loading: true } },
    },
    { type: 'function', name: 'now', parameters: {} },
    { type: 'hosted', name: 'web_search_20250305', format: 'messages', definition: { type: 'web_search_20250305', name: 'web_search', max_uses: 3 } },
    { type: 'hosted', name: 'web_search', format: 'responses', definition: { type: 'web_search' } },
    { type: 'custom', name: 'apply_patch', description: 'Apply a patch' },
  ],
  toolChoice: { type: 'required' },
  parallelToolCalls: false,
  params: { maxOutputTokens: 1000, temperature: 1.7, topP: 0.9, topK: 40, stop: ['END'], seed: 7 },
  responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { text: { type: 'string' } } } },
  stream: true,
  user: 'user-42',
  extensions: {
    messages: { context_management: { edits: [{ type: 'clear_thinking_20251015' }] }, service_tier: 'auto', output_config: { effort: 'high' } },
    chat: { logit_bias: { '1': 2 } },
  },
};

function body(request: IrRequest): Record<string, unknown> {
  const built = anthropicAdapter.text.buildRequest(request, target, {});
  const parsed: unknown = JSON.parse(built.body);
  if (typeof parsed !== 'object' || parsed === null) throw new Error('body is not an object');
  return { ...parsed };
}

function simple(overrides: Partial<IrRequest>): IrRequest {
  return { model: 'smart', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], params: {}, stream: false, extensions: {}, ...overrides };
}

describe('buildRequest: conversation', () => {
  const built = body(conversation);

  it('hoists leading system and developer turns into the top-level system blocks', () => {
    expect(built['system']).toEqual([
      { type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Use metric units.' },
    ]);
  });

  it('sends anthropic thinking back verbatim, drops foreign reasoning, and turns calls into tool_use', () => {
    expect(built['messages']).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Two cities, two calls.', signature },
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va' },
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'call_2', name: 'get_weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: '18 °C' },
          { type: 'tool_result', tool_use_id: 'call_2', content: [{ type: 'text', text: 'timeout' }], is_error: true, cache_control: { type: 'ephemeral', ttl: '1h' } },
          { type: 'text', text: 'Answer in one line.' },
          { type: 'text', text: 'Summarise.' },
        ],
      },
    ]);
  });

  it('maps function, messages-hosted and custom tools and leaves out hosted tools of other formats', () => {
    expect(built['tools']).toEqual([
      {
        defer_loading: true,
        name: 'get_weather',
        description: 'Weather for a city',
        input_schema: { type: 'object', properties: { city: { type: 'string' } } },
        cache_control: { type: 'ephemeral' },
      },
      { name: 'now', input_schema: { type: 'object', properties: {} } },
      { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
      {
        name: 'apply_patch',
        description: 'Apply a patch',
        input_schema: { type: 'object', properties: { input: { type: 'string', description: 'The raw input for the tool.' } }, required: ['input'] },
      },
    ]);
  });

  it('maps required tool choice to any and disables parallel calls on it', () => {
    expect(built['tool_choice']).toEqual({ type: 'any', disable_parallel_tool_use: true });
  });

  it('clamps temperature into 0–1 and maps the other generation fields', () => {
    expect(built).toMatchObject({
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 1000,
      temperature: 1,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-42' },
      stream: true,
    });
    expect(built).not.toHaveProperty('seed');
    expect(built).not.toHaveProperty('thinking');
  });

  it('merges Messages extension fields and the structured output format', () => {
    expect(built['output_config']).toEqual({
      effort: 'high',
      format: { type: 'json_schema', schema: { type: 'object', properties: { text: { type: 'string' } } } },
    });
    expect(built['context_management']).toEqual({ edits: [{ type: 'clear_thinking_20251015' }] });
    expect(built['service_tier']).toBe('auto');
    expect(built).not.toHaveProperty('logit_bias');
  });

  it('keeps tool results first when a system turn came between the call and its result', () => {
    const built = body(
      simple({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Go' }] },
          { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'f', arguments: '{}' }] },
          { role: 'system', content: [{ type: 'text', text: 'Reminder: be brief.' }] },
          { role: 'tool', content: [{ type: 'tool-result', callId: 'call_1', content: 'done' }] },
        ],
      }),
    );
    expect(built['messages']).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'f', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'done' },
          { type: 'text', text: 'Reminder: be brief.' },
        ],
      },
    ]);
  });

  it('sends a custom tool call as an object wrapping its raw input', () => {
    const built = body(simple({ messages: [{ role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 'apply_patch', kind: 'custom', arguments: '*** Begin Patch' }] }] }));
    expect(built['messages']).toEqual([{ role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'apply_patch', input: { input: '*** Begin Patch' } }] }]);
  });

  it('refuses tool-call arguments that are not a JSON object, naming the call', () => {
    const request = simple({ messages: [{ role: 'assistant', content: [{ type: 'tool-call', id: 'call_9', name: 'f', arguments: '{"a":' }] }] });
    expect(() => anthropicAdapter.text.buildRequest(request, target, {})).toThrow(
      expect.objectContaining({ code: 'invalid_request', param: 'messages[0]', message: expect.stringContaining('call_9') }),
    );
  });
});

describe('buildRequest: content blocks', () => {
  it('maps image and file sources to image and document blocks', () => {
    const built = body(
      simple({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
              { type: 'image', source: { kind: 'url', url: 'data:image/png;base64,iVBORw0' } },
              { type: 'image', source: { kind: 'file', fileId: 'file_1' } },
              { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0' }, filename: 'a.pdf' },
              { type: 'file', source: { kind: 'text', mediaType: 'text/plain', text: 'notes' } },
              { type: 'file', source: { kind: 'url', url: 'https://example.com/b.pdf' } },
              { type: 'file', source: { kind: 'file', fileId: 'file_2' } },
            ],
          },
        ],
      }),
    );
    expect(built['messages']).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0' } },
          { type: 'image', source: { type: 'file', file_id: 'file_1' } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0' }, title: 'a.pdf' },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' } },
          { type: 'document', source: { type: 'url', url: 'https://example.com/b.pdf' } },
          { type: 'document', source: { type: 'file', file_id: 'file_2' } },
        ],
      },
    ]);
  });

  it('refuses file types Messages cannot read', () => {
    const request = simple({ messages: [{ role: 'user', content: [{ type: 'file', source: { kind: 'base64', mediaType: 'application/zip', data: 'UEsD' } }] }] });
    expect(() => anthropicAdapter.text.buildRequest(request, target, {})).toThrow(expect.objectContaining({ code: 'unsupported_combination' }));
  });
});

describe('buildRequest: thinking', () => {
  it('derives a budget from effort and raises max_tokens above it', () => {
    const built = body(simple({ reasoning: { effort: 'high' }, params: { temperature: 0.2, topK: 5 } }));
    expect(built['thinking']).toEqual({ type: 'enabled', budget_tokens: 16384 });
    expect(built['max_tokens']).toBe(16384 + 4096);
    // Messages rejects temperature and top_k changes while thinking.
    expect(built).not.toHaveProperty('temperature');
    expect(built).not.toHaveProperty('top_k');
  });

  it('keeps a max_tokens that already leaves room above the budget', () => {
    const built = body(simple({ reasoning: { effort: 'medium' }, params: { maxOutputTokens: 32000 } }));
    expect(built['thinking']).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(built['max_tokens']).toBe(32000);
  });

  it("never raises a client's own cap: the budget shrinks to half of it, or thinking is left out below the smallest budget", () => {
    const fitted = body(simple({ reasoning: { effort: 'high' }, params: { maxOutputTokens: 3000 } }));
    expect(fitted['thinking']).toEqual({ type: 'enabled', budget_tokens: 1500 });
    expect(fitted['max_tokens']).toBe(3000);
    const tooSmall = body(simple({ reasoning: { effort: 'high' }, params: { maxOutputTokens: 1500 } }));
    expect(tooSmall).not.toHaveProperty('thinking');
    expect(tooSmall['max_tokens']).toBe(1500);
  });

  it('uses an explicit budget as given', () => {
    expect(body(simple({ reasoning: { budgetTokens: 3000 } }))['thinking']).toEqual({ type: 'enabled', budget_tokens: 3000 });
  });

  it('sends adaptive thinking with the effort in output_config', () => {
    const built = body(simple({ reasoning: { adaptive: true, effort: 'low' } }));
    expect(built['thinking']).toEqual({ type: 'adaptive' });
    expect(built['output_config']).toEqual({ effort: 'low' });
    expect(built['max_tokens']).toBe(8192);
  });

  it('omits thinking when reasoning is off', () => {
    expect(body(simple({ reasoning: { enabled: false, effort: 'high' } }))).not.toHaveProperty('thinking');
    expect(body(simple({ reasoning: { effort: 'none' } }))).not.toHaveProperty('thinking');
    expect(body(simple({}))['max_tokens']).toBe(8192);
  });
});

describe('upstream address and headers', () => {
  it('posts to /v1/messages with key, version, forwarded beta and operator headers', () => {
    const built = anthropicAdapter.text.buildRequest(simple({}), { ...target, baseUrl: 'https://gateway.example/anthropic/v1' }, {
      'anthropic-version': '2023-06-01',
      'Anthropic-Beta': 'context-management-2025-06-27',
    });
    expect(built.url).toBe('https://gateway.example/anthropic/v1/messages');
    expect(built.headers).toEqual({
      'content-type': 'application/json',
      'x-api-key': 'sk-ant-test-key',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'context-management-2025-06-27',
      'x-operator': 'yes',
    });
  });

  it('defaults anthropic-version and sends no beta header when none was forwarded', () => {
    const headers = anthropicAdapter.upstreamHeaders(target, {});
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers).not.toHaveProperty('anthropic-beta');
  });

  it('gives the Messages passthrough URL and refuses other formats', () => {
    expect(anthropicAdapter.text.passthroughUrl('messages', target, false)).toBe('https://api.anthropic.com/v1/messages');
    expect(() => anthropicAdapter.text.passthroughUrl('chat', target, false)).toThrow();
  });
});
