import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../errors/gateway-error.js';
import { chatFormat } from './index.js';

const base = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] };

function rejection(body: unknown): GatewayError {
  try {
    chatFormat.decodeRequest(body);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected the body to be rejected');
}

describe('chat decodeRequest: fields', () => {
  it('decodes the minimal request the openai SDK sends', () => {
    expect(chatFormat.decodeRequest(base)).toEqual({
      model: 'gpt-test',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      params: {},
      stream: false,
      extensions: { chat: {} },
    });
  });

  it('decodes every message role, including developer and the legacy function role', () => {
    const request = chatFormat.decodeRequest({
      model: 'm',
      messages: [
        { role: 'system', content: 'sys', name: 'boss' },
        { role: 'developer', content: [{ type: 'text', text: 'dev' }] },
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'result' },
        { role: 'assistant', content: null, function_call: { name: 'g', arguments: '{}' } },
        { role: 'function', name: 'g', content: 'legacy result' },
        { role: 'assistant', content: 'done', reasoning_content: 'why' },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'sys' }], name: 'boss' },
      { role: 'system', content: [{ type: 'text', text: 'dev' }], developer: true },
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'f', arguments: '{"a":1}' }] },
      { role: 'tool', content: [{ type: 'tool-result', callId: 'call_1', content: 'result' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_legacy_1', name: 'g', arguments: '{}' }] },
      { role: 'tool', content: [{ type: 'tool-result', callId: 'call_legacy_1', name: 'g', content: 'legacy result' }] },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'why' }, { type: 'text', text: 'done' }] },
    ]);
  });

  it('decodes content parts: text, http and data image URLs, input_audio and files', () => {
    const request = chatFormat.decodeRequest({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'https://img.test/cat.png', detail: 'high' } },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            { type: 'input_audio', input_audio: { data: 'UklGR', format: 'wav' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0x', filename: 'a.pdf' } },
            { type: 'file', file: { file_id: 'file-123' } },
          ],
        },
      ],
    });
    expect(request.messages[0]?.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', source: { kind: 'url', url: 'https://img.test/cat.png' }, detail: 'high' },
      { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: '/9j/4AAQ' } },
      { type: 'file', source: { kind: 'base64', mediaType: 'audio/wav', data: 'UklGR' } },
      { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0x' }, filename: 'a.pdf' },
      { type: 'file', source: { kind: 'file', fileId: 'file-123' } },
    ]);
  });

  it('decodes tools (function and custom; others kept whole), tool_choice and parallel_tool_calls', () => {
    const request = chatFormat.decodeRequest({
      ...base,
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'w', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true } },
        { type: 'function', function: { name: 'no_args' } },
        { type: 'custom', custom: { name: 'apply_patch', format: { type: 'grammar', grammar: { definition: 'x', syntax: 'lark' } } } },
        { type: 'web_search', search_context_size: 'low' },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
    });
    expect(request.tools).toEqual([
      { type: 'function', name: 'get_weather', description: 'w', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
      { type: 'function', name: 'no_args', parameters: { type: 'object', properties: {} } },
      { type: 'custom', name: 'apply_patch', format: { type: 'grammar', grammar: { definition: 'x', syntax: 'lark' } } },
      { type: 'hosted', name: 'web_search', format: 'chat', definition: { type: 'web_search', search_context_size: 'low' } },
    ]);
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'get_weather' });
    expect(request.parallelToolCalls).toBe(false);
  });

  it.each([
    ['none', { type: 'none' }],
    ['auto', { type: 'auto' }],
    ['required', { type: 'required' }],
  ])('decodes tool_choice %s', (choice, expected) => {
    expect(chatFormat.decodeRequest({ ...base, tool_choice: choice }).toolChoice).toEqual(expected);
  });

  it('decodes sampling, length, stop, reasoning, response format, user and metadata', () => {
    const request = chatFormat.decodeRequest({
      ...base,
      temperature: 0.5,
      top_p: 0.8,
      frequency_penalty: 0.3,
      presence_penalty: -0.4,
      seed: 42,
      n: 1,
      max_tokens: 100,
      max_completion_tokens: 200,
      stop: 'STOP',
      reasoning_effort: 'high',
      response_format: { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object' }, strict: true, description: 'd' } },
      user: 'u-1',
      metadata: { a: 'b' },
    });
    expect(request.params).toEqual({ temperature: 0.5, topP: 0.8, frequencyPenalty: 0.3, presencePenalty: -0.4, seed: 42, choiceCount: 1, maxOutputTokens: 200, stop: ['STOP'] });
    expect(request.reasoning).toEqual({ effort: 'high' });
    expect(request.responseFormat).toEqual({ type: 'json_schema', name: 'r', schema: { type: 'object' }, strict: true, description: 'd' });
    expect(request.user).toBe('u-1');
    expect(request.metadata).toEqual({ a: 'b' });
    expect(chatFormat.decodeRequest({ ...base, max_tokens: 50, stop: ['a', 'b'] }).params).toEqual({ maxOutputTokens: 50, stop: ['a', 'b'] });
    expect(chatFormat.decodeRequest({ ...base, response_format: { type: 'json_object' } }).responseFormat).toEqual({ type: 'json_object' });
  });

  it('keeps stream, stream_options and every unknown top-level field in extensions.chat', () => {
    const request = chatFormat.decodeRequest({
      ...base,
      stream: true,
      stream_options: { include_usage: true },
      store: true,
      service_tier: 'flex',
      logit_bias: { '50256': -100 },
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [] } },
    });
    expect(request.stream).toBe(true);
    expect(request.toolChoice).toEqual({ type: 'required' });
    expect(request.extensions['chat']).toEqual({
      stream_options: { include_usage: true },
      store: true,
      service_tier: 'flex',
      logit_bias: { '50256': -100 },
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [] } },
    });
  });
});

describe('chat decodeRequest: bad input', () => {
  it.each([
    ['an array', []],
    ['a string', 'hello'],
    ['null', null],
  ])('rejects a body that is %s as invalid_request', (_label, body) => {
    expect(rejection(body).code).toBe('invalid_request');
  });

  it.each<[string, unknown, string, string]>([
    ['missing model', { messages: base.messages }, 'missing_field', 'model'],
    ['empty model', { ...base, model: '' }, 'invalid_field', 'model'],
    ['numeric model', { ...base, model: 4 }, 'invalid_field', 'model'],
    ['missing messages', { model: 'm' }, 'missing_field', 'messages'],
    ['messages not an array', { model: 'm', messages: 'hi' }, 'invalid_field', 'messages'],
    ['empty messages', { model: 'm', messages: [] }, 'invalid_field', 'messages'],
    ['bad role', { model: 'm', messages: [{ role: 'user', content: 'a' }, { role: 'robot', content: 'x' }] }, 'invalid_field', 'messages[1].role'],
    ['missing role', { model: 'm', messages: [{ content: 'x' }] }, 'missing_field', 'messages[0].role'],
    ['numeric content', { model: 'm', messages: [{ role: 'user', content: 1 }, { role: 'user', content: 'a' }, { role: 'user', content: 5 }] }, 'invalid_field', 'messages[0].content'],
    ['missing user content', { model: 'm', messages: [{ role: 'user' }] }, 'missing_field', 'messages[0].content'],
    ['unknown part type', { model: 'm', messages: [{ role: 'user', content: [{ type: 'video', video: {} }] }] }, 'invalid_field', 'messages[0].content[0].type'],
    ['image part without url', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, 'missing_field', 'messages[0].content[0].image_url.url'],
    ['image url not http or data', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x' } }] }] }, 'invalid_field', 'messages[0].content[0].image_url.url'],
    ['tool message without tool_call_id', { model: 'm', messages: [{ role: 'tool', content: 'r' }] }, 'missing_field', 'messages[0].tool_call_id'],
    ['tool call arguments not a string', { model: 'm', messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }] }] }, 'invalid_field', 'messages[0].tool_calls[0].function.arguments'],
    ['temperature as string', { ...base, temperature: 'hot' }, 'invalid_field', 'temperature'],
    ['temperature out of range', { ...base, temperature: 3 }, 'invalid_field', 'temperature'],
    ['stop as number', { ...base, stop: 3 }, 'invalid_field', 'stop'],
    ['negative max_tokens', { ...base, max_tokens: -1 }, 'invalid_field', 'max_tokens'],
    ['fractional max_completion_tokens', { ...base, max_completion_tokens: 1.5 }, 'invalid_field', 'max_completion_tokens'],
    ['stream as string', { ...base, stream: 'yes' }, 'invalid_field', 'stream'],
    ['unknown reasoning_effort', { ...base, reasoning_effort: 'extreme' }, 'invalid_field', 'reasoning_effort'],
    ['tools not an array', { ...base, tools: {} }, 'invalid_field', 'tools'],
    ['function tool without name', { ...base, tools: [{ type: 'function', function: {} }] }, 'missing_field', 'tools[0].function.name'],
    ['bad tool_choice', { ...base, tool_choice: 'sometimes' }, 'invalid_field', 'tool_choice'],
    ['json_schema without name', { ...base, response_format: { type: 'json_schema', json_schema: { schema: {} } } }, 'missing_field', 'response_format.json_schema.name'],
    ['metadata with a number', { ...base, metadata: { a: 1 } }, 'invalid_field', 'metadata.a'],
    ['parallel_tool_calls as string', { ...base, parallel_tool_calls: 'no' }, 'invalid_field', 'parallel_tool_calls'],
  ])('%s → %s at %s', (_label, body, code, param) => {
    const error = rejection(body);
    expect({ code: error.code, param: error.param, status: error.status }).toEqual({ code, param, status: 400 });
    expect(error.message).toContain(`'${param}'`);
  });

  it('writes messages a person can act on', () => {
    expect(rejection({ messages: base.messages }).message).toBe("Missing required parameter: 'model'.");
    expect(rejection({ model: 'm', messages: [{ role: 'robot', content: 'x' }] }).message).toMatch(/^Invalid value for 'messages\[0\]\.role': .*'user'/);
  });
});
