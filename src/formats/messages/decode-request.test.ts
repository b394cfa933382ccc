import { describe, expect, it } from 'vitest';
import type { FunctionTool, IrRequest } from '../../ir/index.js';
import { decodeMessagesCountTokensRequest, messagesFormat } from './index.js';
import { readClientRecords } from './messages-fixtures.test-support.js';

const claudeCode = readClientRecords('claude-code.jsonl');
const anthropicSdk = readClientRecords('anthropic-sdk.jsonl');

function recordAt(line: number): Readonly<Record<string, unknown>> {
  const record = claudeCode.find((candidate) => candidate.line === line);
  if (record === undefined) throw new Error(`no request on line ${line}`);
  return record.body;
}

function functionTool(request: IrRequest, name: string): FunctionTool {
  const tool = request.tools?.find((candidate) => candidate.type === 'function' && candidate.name === name);
  if (tool?.type !== 'function') throw new Error(`no function tool ${name}`);
  return tool;
}

describe('Messages decodeRequest: recorded client bodies', () => {
  const generation = [...claudeCode, ...anthropicSdk].filter((record) => record.path === '/v1/messages');
  const counting = [...claudeCode, ...anthropicSdk].filter((record) => record.path === '/v1/messages/count_tokens');

  it('has recordings of both endpoints to decode', () => {
    expect(generation.length).toBe(20);
    expect(counting.length).toBe(3);
  });

  it.each(generation.map((record) => [record.line, record]))('decodes the /v1/messages body recorded on line %i', (_line, record) => {
    const request = messagesFormat.decodeRequest(record.body);
    expect(request.model).toBe(record.body['model']);
    expect(request.params.maxOutputTokens).toBe(record.body['max_tokens']);
    expect(request.stream).toBe(record.body['stream'] === true);
  });

  it.each(counting.map((record) => [record.line, record]))('decodes the count_tokens body recorded on line %i', (_line, record) => {
    const request = decodeMessagesCountTokensRequest(record.body);
    expect(request.messages.length).toBeGreaterThan(0);
    expect(request.params).toEqual({});
  });

  it('maps the Claude Code opus body: system blocks, role:system turn, adaptive thinking with effort, extras kept', () => {
    const body = recordAt(4);
    const request = messagesFormat.decodeRequest(body);
    const [system, reminder, environment] = request.messages;
    expect(system?.role).toBe('system');
    expect(system?.content.map((part) => part.type === 'text' && part.cacheControl)).toEqual([undefined, { type: 'ephemeral' }, { type: 'ephemeral' }]);
    expect(system?.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('x-anthropic-billing-header') });
    expect(reminder).toMatchObject({ role: 'user', content: [{ type: 'text' }, { type: 'text', text: 'say hi' }] });
    expect(request.messages.map((message) => message.role)).toEqual(['system', 'user', 'system']);
    expect(environment).toMatchObject({
      role: 'system',
      content: [{ type: 'text', text: expect.stringContaining('# Environment'), cacheControl: { type: 'ephemeral' } }],
    });
    expect(request.reasoning).toEqual({ adaptive: true, effort: 'medium' });
    expect(request.extensions['messages']).toEqual({
      metadata: body['metadata'],
      thinking: { type: 'adaptive', display: 'omitted' },
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    });
    expect(request.user).toContain('"session_id"');
    expect(request.stream).toBe(true);
  });

  it('keeps tool schemas as sent ($schema, additionalProperties) and defer_loading in the tool extensions', () => {
    const body = recordAt(4);
    const request = messagesFormat.decodeRequest(body);
    expect(request.tools).toHaveLength(12);
    const edit = functionTool(request, 'Edit');
    expect(edit.parameters['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(edit.parameters['additionalProperties']).toBe(false);
    const sentEdit = (body['tools'] as Record<string, unknown>[]).find((tool) => tool['name'] === 'Edit');
    expect(edit.parameters).toEqual(sentEdit?.['input_schema']);
    expect(functionTool(request, 'DeferredToolPlaceholder').extensions).toEqual({ messages: { defer_loading: true } });
    expect(edit.extensions).toBeUndefined();
  });

  it('maps the enabled thinking budget and keeps display beside it', () => {
    const request = messagesFormat.decodeRequest(recordAt(7));
    expect(request.reasoning).toEqual({ enabled: true, budgetTokens: 31999 });
    expect(request.extensions['messages']?.['thinking']).toEqual({ budget_tokens: 31999, type: 'enabled', display: 'omitted' });
    expect(request.params).toEqual({ maxOutputTokens: 32000 });
  });

  it('maps the tool round trip: tool_use input as JSON text, tool_result with is_error and cache_control in a tool turn', () => {
    const request = messagesFormat.decodeRequest(recordAt(8));
    const [assistant, tool] = request.messages.slice(-2);
    expect(assistant).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          id: 'toolu_33d7554a7560b784',
          name: 'Bash',
          arguments: JSON.stringify({ command: 'echo hello-from-tool && uname -s', description: 'Print a greeting' }),
        },
      ],
    });
    expect(tool).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          callId: 'toolu_33d7554a7560b784',
          content: expect.stringContaining('hello-from-tool\nLinux'),
          isError: false,
          cacheControl: { type: 'ephemeral' },
        },
      ],
    });
  });

  it('carries an echoed thinking block as reasoning with its signature as an anthropic blob', () => {
    const request = messagesFormat.decodeRequest(recordAt(10));
    expect(request.messages.at(-2)?.content[0]).toEqual({
      type: 'reasoning',
      text: 'Let me think about this.',
      blob: { provider: 'anthropic', value: 'fakesig-msg_05fe180b85652437' },
    });
  });

  it('reads the OpenAI reasoning item id and another provider\'s call signature back out of echoed thinking blocks', () => {
    const request = messagesFormat.decodeRequest({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'plan', signature: 'switchyard.v1.openai.item-rs_42.enc.v1' },
            { type: 'thinking', thinking: '', signature: 'switchyard.v1.gemini.signed.sig-call' },
            { type: 'tool_use', id: 'call_1', name: 'f', input: {} },
          ],
        },
      ],
    });
    expect(request.messages[1]?.content).toEqual([
      { type: 'reasoning', text: 'plan', blob: { provider: 'openai', value: 'enc.v1' }, itemId: 'rs_42' },
      { type: 'reasoning', text: '', blob: { provider: 'gemini', value: 'sig-call' } },
      { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{}' },
    ]);
  });

  it('decodes the SDK body with a string system prompt', () => {
    const body = anthropicSdk[0]?.body;
    const request = messagesFormat.decodeRequest(body);
    expect(request.messages[0]).toEqual({ role: 'system', content: [{ type: 'text', text: body?.['system'] }] });
    expect(request.messages[1]).toEqual({ role: 'user', content: [{ type: 'text', text: 'hi' }] });
    expect(request.extensions).toEqual({ messages: {} });
  });
});

describe('Messages decodeRequest: every content block and option', () => {
  it('decodes image, document, redacted thinking and tool_result blocks and splits a user turn in order', () => {
    const request = messagesFormat.decodeRequest({
      model: 'm',
      max_tokens: 10,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' }, cache_control: { type: 'ephemeral', ttl: '1h' } },
            { type: 'image', source: { type: 'url', url: 'https://img.test/a.png' } },
            { type: 'image', source: { type: 'file', file_id: 'file_1' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' }, title: 'a.pdf' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain' } },
            { type: 'document', source: { type: 'url', url: 'https://doc.test/a.pdf' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'calling' },
            { type: 'tool_use', id: 'toolu_1', name: 'a', input: {} },
            { type: 'tool_use', id: 'toolu_2', name: 'b', input: { x: [1] } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'A' }, { type: 'image', source: { type: 'url', url: 'https://img.test/b.png' } }] },
            { type: 'tool_result', tool_use_id: 'toolu_2', is_error: true },
            { type: 'text', text: 'go on' },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBOR' }, cacheControl: { type: 'ephemeral', ttl: '1h' } },
          { type: 'image', source: { kind: 'url', url: 'https://img.test/a.png' } },
          { type: 'image', source: { kind: 'file', fileId: 'file_1' } },
          { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBER' }, filename: 'a.pdf' },
          { type: 'file', source: { kind: 'text', mediaType: 'text/plain', text: 'plain' } },
          { type: 'file', source: { kind: 'url', url: 'https://doc.test/a.pdf' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: '', redacted: true, blob: { provider: 'anthropic', value: 'opaque' } },
          { type: 'text', text: 'calling' },
          { type: 'tool-call', id: 'toolu_1', name: 'a', arguments: '{}' },
          { type: 'tool-call', id: 'toolu_2', name: 'b', arguments: '{"x":[1]}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', callId: 'toolu_1', content: [{ type: 'text', text: 'A' }, { type: 'image', source: { kind: 'url', url: 'https://img.test/b.png' } }] },
          { type: 'tool-result', callId: 'toolu_2', content: '', isError: true },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'go on' }] },
    ]);
  });

  it('leaves server-tool blocks in assistant history out of the IR and keeps server tools as hosted tools', () => {
    const webSearch = { type: 'web_search_20250305', name: 'web_search', max_uses: 3 };
    const request = messagesFormat.decodeRequest({
      model: 'm',
      max_tokens: 10,
      tools: [webSearch, { type: 'custom', name: 'f', input_schema: { type: 'object' }, strict: true, cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'news?' },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'news' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
            { type: 'text', text: 'Here is the news.' },
          ],
        },
      ],
    });
    expect(request.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Here is the news.' }] });
    expect(request.tools).toEqual([
      { type: 'hosted', name: 'web_search_20250305', format: 'messages', definition: webSearch },
      {
        type: 'function',
        name: 'f',
        parameters: { type: 'object' },
        strict: true,
        cacheControl: { type: 'ephemeral' },
        extensions: { messages: { type: 'custom', strict: true } },
      },
    ]);
  });

  it.each([
    [{ type: 'auto' }, { toolChoice: { type: 'auto' } }],
    [{ type: 'any', disable_parallel_tool_use: true }, { toolChoice: { type: 'required' }, parallelToolCalls: false }],
    [{ type: 'tool', name: 'f', disable_parallel_tool_use: false }, { toolChoice: { type: 'tool', name: 'f' } }],
    [{ type: 'none' }, { toolChoice: { type: 'none' } }],
  ])('maps tool_choice %j', (choice, expected) => {
    const request = messagesFormat.decodeRequest({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }], tool_choice: choice });
    expect({ toolChoice: request.toolChoice, ...(request.parallelToolCalls === undefined ? {} : { parallelToolCalls: request.parallelToolCalls }) }).toEqual(expected);
  });

  it('maps sampling, stop sequences, structured output, disabled thinking and keeps every unmodeled field', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
    const body = {
      model: 'm',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'x' }],
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['END'],
      thinking: { type: 'disabled' },
      output_config: { effort: 'high', format: { type: 'json_schema', schema }, future_option: 1 },
      metadata: { user_id: 'user-7' },
      service_tier: 'standard_only',
      container: 'container_1',
      cache_control: { type: 'ephemeral' },
      inference_geo: 'us',
      context_management: { edits: [] },
      stream: false,
    };
    const request = messagesFormat.decodeRequest(body);
    expect(request.params).toEqual({ maxOutputTokens: 100, temperature: 0.2, topP: 0.9, topK: 40, stop: ['END'] });
    expect(request.reasoning).toEqual({ enabled: false, effort: 'high' });
    expect(request.responseFormat).toEqual({ type: 'json_schema', name: 'response', schema });
    expect(request.user).toBe('user-7');
    expect(request.stream).toBe(false);
    expect(request.extensions).toEqual({
      messages: {
        thinking: { type: 'disabled' },
        output_config: { future_option: 1 },
        metadata: { user_id: 'user-7' },
        service_tier: 'standard_only',
        container: 'container_1',
        cache_control: { type: 'ephemeral' },
        inference_geo: 'us',
        context_management: { edits: [] },
      },
    });
  });
});

function rejection(body: unknown, decode: (body: unknown) => IrRequest = messagesFormat.decodeRequest): { code: string; param: string | undefined; message: string; status: number } {
  try {
    decode(body);
  } catch (error) {
    const { code, param, message, status } = error as { code: string; param: string | undefined; message: string; status: number };
    return { code, param, message, status };
  }
  throw new Error('expected the body to be rejected');
}

const valid = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
const user = (content: unknown) => ({ ...valid, messages: [{ role: 'user', content }] });

describe('Messages decodeRequest: bad input', () => {
  it('asks for max_tokens and points OpenAI-style bodies at /v1/chat/completions', () => {
    const error = rejection({ model: 'gpt-4o', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }], max_completion_tokens: 5 });
    expect(error).toMatchObject({ code: 'missing_field', param: 'max_tokens', status: 400 });
    expect(error.message).toContain('/v1/chat/completions');
  });

  it('rejects a body that is not an object', () => {
    expect(rejection([valid])).toMatchObject({ code: 'invalid_request', param: undefined, status: 400 });
  });

  it.each<[string, unknown, string, string]>([
    ['model missing', { max_tokens: 1, messages: valid.messages }, 'missing_field', 'model'],
    ['max_tokens not a number', { ...valid, max_tokens: '10' }, 'invalid_field', 'max_tokens'],
    ['max_tokens zero', { ...valid, max_tokens: 0 }, 'invalid_field', 'max_tokens'],
    ['messages not an array', { ...valid, messages: 'hi' }, 'invalid_field', 'messages'],
    ['messages empty', { ...valid, messages: [] }, 'invalid_field', 'messages'],
    ['unknown role', { ...valid, messages: [{ role: 'tool', content: 'x' }] }, 'invalid_field', 'messages.0.role'],
    ['content missing', { ...valid, messages: [{ role: 'user' }] }, 'missing_field', 'messages.0.content'],
    ['content a number', user(5), 'invalid_field', 'messages.0.content'],
    ['unknown block type', { ...valid, messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'bogus' }] }] }, 'unsupported_content', 'messages.1.content.0.type'],
    ['block type not a string', user([{ type: 7 }]), 'invalid_field', 'messages.0.content.0.type'],
    ['text not a string', user([{ type: 'text', text: 5 }]), 'invalid_field', 'messages.0.content.0.text'],
    ['image source type unknown', user([{ type: 'image', source: { type: 'gopher' } }]), 'invalid_field', 'messages.0.content.0.source.type'],
    ['image data missing', user([{ type: 'image', source: { type: 'base64', media_type: 'image/png' } }]), 'missing_field', 'messages.0.content.0.source.data'],
    ['document source missing', user([{ type: 'document' }]), 'missing_field', 'messages.0.content.0.source'],
    ['tool_use in a user turn', user([{ type: 'tool_use', id: 't', name: 'f', input: {} }]), 'unsupported_content', 'messages.0.content.0.type'],
    ['tool_use input not an object', { ...valid, messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: '{}' }] }] }, 'invalid_field', 'messages.1.content.0.input'],
    ['tool_result without tool_use_id', user([{ type: 'tool_result', content: 'x' }]), 'missing_field', 'messages.0.content.0.tool_use_id'],
    ['tool_result with a bad inner block', user([{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'tool_use' }] }]), 'invalid_field', 'messages.0.content.0.content.0.type'],
    ['tool_result is_error not a boolean', user([{ type: 'tool_result', tool_use_id: 't', is_error: 'yes' }]), 'invalid_field', 'messages.0.content.0.is_error'],
    ['thinking without signature', { ...valid, messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'x' }] }] }, 'missing_field', 'messages.1.content.0.signature'],
    ['cache_control of an unknown type', user([{ type: 'text', text: 'x', cache_control: { type: 'forever' } }]), 'invalid_field', 'messages.0.content.0.cache_control.type'],
    ['image block in a system turn', { ...valid, messages: [{ role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'u' } }] }] }, 'unsupported_content', 'messages.0.content.0.type'],
    ['system with a non-text block', { ...valid, system: [{ type: 'image' }] }, 'invalid_field', 'system.0.type'],
    ['system a number', { ...valid, system: 3 }, 'invalid_field', 'system'],
    ['tool without input_schema', { ...valid, tools: [{ name: 'f' }] }, 'missing_field', 'tools.0.input_schema'],
    ['tool name not a string', { ...valid, tools: [{ name: 1, input_schema: {} }] }, 'invalid_field', 'tools.0.name'],
    ['tool type not a string', { ...valid, tools: [{ type: 3, name: 'f', input_schema: {} }] }, 'invalid_field', 'tools.0.type'],
    ['tool_choice type unknown', { ...valid, tool_choice: { type: 'sometimes' } }, 'invalid_field', 'tool_choice.type'],
    ['tool_choice tool without name', { ...valid, tool_choice: { type: 'tool' } }, 'missing_field', 'tool_choice.name'],
    ['thinking enabled without budget', { ...valid, thinking: { type: 'enabled' } }, 'missing_field', 'thinking.budget_tokens'],
    ['output_config effort unknown', { ...valid, output_config: { effort: 'extreme' } }, 'invalid_field', 'output_config.effort'],
    ['output_config format without schema', { ...valid, output_config: { format: { type: 'json_schema' } } }, 'missing_field', 'output_config.format.schema'],
    ['temperature above 1', { ...valid, temperature: 1.5 }, 'invalid_field', 'temperature'],
    ['top_k fractional', { ...valid, top_k: 1.5 }, 'invalid_field', 'top_k'],
    ['stop_sequences a string', { ...valid, stop_sequences: 'END' }, 'invalid_field', 'stop_sequences'],
    ['metadata user_id a number', { ...valid, metadata: { user_id: 5 } }, 'invalid_field', 'metadata.user_id'],
    ['stream a string', { ...valid, stream: 'yes' }, 'invalid_field', 'stream'],
  ])('%s → %s at %s', (_name, body, code, param) => {
    const error = rejection(body);
    expect(error).toMatchObject({ code, param, status: 400 });
    expect(error.message.startsWith(`${param}: `)).toBe(true);
  });

  it('checks count_tokens bodies the same way, without asking for max_tokens', () => {
    expect(rejection({ model: 'm', messages: [{ role: 'user', content: [{ type: 'bogus' }] }] }, decodeMessagesCountTokensRequest)).toMatchObject({
      code: 'unsupported_content',
      param: 'messages.0.content.0.type',
    });
  });
});
