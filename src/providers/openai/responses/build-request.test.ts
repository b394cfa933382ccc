import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../errors/gateway-error.js';
import type { IrRequest } from '../../../ir/index.js';
import { namespaceExtensions } from '../../../wire/responses/namespaced-tool.js';
import type { UpstreamTarget } from '../../provider-adapter.js';
import { buildResponsesBody } from './build-request.js';
import { openAIResponsesAdapter } from '../openai-adapters.js';

const target: UpstreamTarget = { providerName: 'openai', kind: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-up', model: 'gpt-5.1' };

function request(overrides: Partial<IrRequest>): IrRequest {
  return { model: 'public', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], params: {}, stream: true, extensions: {}, ...overrides };
}

describe('Responses upstream request', () => {
  it('posts to /responses with the bearer credential and the operator headers', () => {
    const built = openAIResponsesAdapter.text.buildRequest(request({}), { ...target, headers: { 'OpenAI-Project': 'p1' } }, {});
    expect(built.url).toBe('https://api.openai.com/v1/responses');
    expect(built.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-up', 'OpenAI-Project': 'p1' });
    expect(JSON.parse(built.body)).toMatchObject({ model: 'gpt-5.1', stream: true, store: false, include: ['reasoning.encrypted_content'] });
    expect(openAIResponsesAdapter.text.passthroughUrl('responses', target, false)).toBe('https://api.openai.com/v1/responses');
    expect(openAIResponsesAdapter.upstreamHeaders(target, {})).toMatchObject({ authorization: 'Bearer sk-up' });
  });

  it('turns leading system turns into instructions and keeps later system and developer turns as messages', () => {
    const body = buildResponsesBody(
      request({
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'be brief' }] },
          { role: 'system', developer: true, content: [{ type: 'text', text: 'dev rules' }] },
          { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { kind: 'url', url: 'https://x/y.png' }, detail: 'low' }] },
          { role: 'system', content: [{ type: 'text', text: 'late' }] },
        ],
      }),
      target,
    );
    expect(body['instructions']).toBe('be brief');
    expect(body['input']).toEqual([
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'dev rules' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }, { type: 'input_image', image_url: 'https://x/y.png', detail: 'low' }] },
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'late' }] },
    ]);
  });

  it('sends OpenAI reasoning back with its item id, drops foreign reasoning, and pairs calls with outputs', () => {
    const body = buildResponsesBody(
      request({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'add' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'thinking', blob: { provider: 'openai', value: 'gAAA' }, itemId: 'rs_1' },
              { type: 'reasoning', text: 'claude thought', blob: { provider: 'anthropic', value: 'sig' } },
              { type: 'text', text: 'calling' },
              { type: 'tool-call', id: 'call_1', name: 'calculator', arguments: '', itemId: 'fc_1' },
              { type: 'tool-call', id: 'toolu_2', name: 'apply_patch', arguments: '*** Begin Patch', kind: 'custom', itemId: 'toolu_2' },
            ],
          },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', callId: 'call_1', content: '19' },
              { type: 'tool-result', callId: 'toolu_2', content: [{ type: 'text', text: 'done' }], kind: 'custom' },
            ],
          },
        ],
      }),
      target,
    );
    expect(body['input']).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'add' }] },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: 'gAAA' },
      { type: 'message', role: 'assistant', content: 'calling' },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'calculator', arguments: '{}' },
      { type: 'custom_tool_call', call_id: 'toolu_2', name: 'apply_patch', input: '*** Begin Patch' },
      { type: 'function_call_output', call_id: 'call_1', output: '19' },
      { type: 'custom_tool_call_output', call_id: 'toolu_2', output: [{ type: 'input_text', text: 'done' }] },
    ]);
  });

  it('regroups namespaced functions, sends hosted Responses tools as written and leaves other hosted tools out', () => {
    const body = buildResponsesBody(
      request({
        tools: [
          { type: 'function', name: 'exec', parameters: { type: 'object' } },
          {
            type: 'function',
            name: 'multi_agent_v1__spawn_agent',
            parameters: { type: 'object' },
            strict: false,
            extensions: namespaceExtensions({ namespace: 'multi_agent_v1', name: 'spawn_agent', namespaceDescription: 'agents' }),
          },
          { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } },
          { type: 'hosted', name: 'web_search', format: 'responses', definition: { type: 'web_search', external_web_access: false } },
          { type: 'hosted', name: 'web_search_20250305', format: 'messages', definition: { type: 'web_search_20250305' } },
        ],
        toolChoice: { type: 'tool', name: 'apply_patch' },
        parallelToolCalls: true,
        messages: [{ role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'multi_agent_v1__spawn_agent', arguments: '{}' }] }],
      }),
      target,
    );
    expect(body['tools']).toEqual([
      { type: 'function', name: 'exec', parameters: { type: 'object' }, strict: false },
      { type: 'namespace', name: 'multi_agent_v1', description: 'agents', tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object' }, strict: false }] },
      { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } },
      { type: 'web_search', external_web_access: false },
    ]);
    expect(body['tool_choice']).toEqual({ type: 'custom', name: 'apply_patch' });
    expect(body['parallel_tool_calls']).toBe(true);
    expect(body['input']).toEqual([{ type: 'function_call', call_id: 'c1', name: 'spawn_agent', arguments: '{}', namespace: 'multi_agent_v1' }]);
  });

  it('merges the client fields back, with modeled fields winning and the encrypted reasoning always included', () => {
    const body = buildResponsesBody(
      request({
        reasoning: { effort: 'medium', summary: 'auto' },
        responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
        params: { maxOutputTokens: 100, temperature: 0.5, topP: 0.9, stop: ['x'], seed: 1 },
        user: 'u1',
        metadata: { a: 'b' },
        extensions: {
          responses: {
            store: true,
            include: ['file_search_call.results'],
            prompt_cache_key: 'thread-1',
            text: { verbosity: 'low' },
            reasoning: { generate_summary: 'auto' },
            model: 'client-model',
          },
        },
      }),
      target,
    );
    expect(body).toEqual({
      model: 'gpt-5.1',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      prompt_cache_key: 'thread-1',
      reasoning: { generate_summary: 'auto', effort: 'medium', summary: 'auto' },
      text: { verbosity: 'low', format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
      max_output_tokens: 100,
      temperature: 0.5,
      top_p: 0.9,
      user: 'u1',
      metadata: { a: 'b' },
      stream: true,
      store: false,
      include: ['file_search_call.results', 'reasoning.encrypted_content'],
    });
  });

  it('maps a thinking budget to an effort and refuses several choices', () => {
    expect(buildResponsesBody(request({ reasoning: { budgetTokens: 8000 } }), target)['reasoning']).toEqual({ effort: 'medium' });
    expect(() => buildResponsesBody(request({ params: { choiceCount: 2 } }), target)).toThrow(GatewayError);
  });
});
