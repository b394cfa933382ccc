import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { IrResponse } from '../../ir/index.js';
import { responsesFormat } from './index.js';

const request = responsesFormat.decodeRequest({
  model: 'alias',
  input: 'hi',
  tools: [{ type: 'namespace', name: 'tasks', tools: [{ type: 'function', name: 'create', parameters: { type: 'object' } }] }],
});
const context = { requestId: 'req_7', model: 'public-model', request };

const response: IrResponse = {
  id: 'msg_01Anthropic',
  model: 'claude',
  created: 1700000000,
  content: [
    { type: 'reasoning', text: 'thought', blob: { provider: 'anthropic', value: 'sig' } },
    { type: 'text', text: 'Hello ' },
    { type: 'text', text: 'there' },
    { type: 'tool-call', id: 'toolu_1', name: 'tasks__create', arguments: '{"title":"x"}' },
    { type: 'tool-call', id: 'toolu_2', name: 'apply_patch', arguments: '*** Begin Patch', kind: 'custom' },
    { type: 'reasoning', text: '' },
  ],
  finish: { reason: 'tool-calls', raw: 'tool_use' },
  usage: { inputUncached: 100, cacheRead: 20, cacheWrite: 30, output: 40, reasoning: 10 },
};

describe('Responses response encoding', () => {
  it('writes the Response object with its output items and usage', () => {
    const body = responsesFormat.encodeResponse(response, context) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: 'resp_msg_01Anthropic',
      object: 'response',
      created_at: 1700000000,
      status: 'completed',
      error: null,
      incomplete_details: null,
      model: 'public-model',
      usage: { input_tokens: 150, input_tokens_details: { cached_tokens: 20 }, output_tokens: 50, output_tokens_details: { reasoning_tokens: 10 }, total_tokens: 200 },
      tools: [{ type: 'namespace', name: 'tasks', tools: [{ type: 'function', name: 'create', parameters: { type: 'object' }, strict: false }] }],
    });
    expect(body['output']).toEqual([
      { type: 'reasoning', id: 'rs_msg_01Anthropic_0', summary: [{ type: 'summary_text', text: 'thought' }], encrypted_content: 'switchyard.v1.anthropic.signed.sig' },
      {
        type: 'message',
        id: 'msg_msg_01Anthropic_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hello there', annotations: [], logprobs: [] }],
      },
      { type: 'function_call', id: 'fc_msg_01Anthropic_2', call_id: 'toolu_1', name: 'create', namespace: 'tasks', arguments: '{"title":"x"}', status: 'completed' },
      { type: 'custom_tool_call', id: 'ctc_msg_01Anthropic_3', call_id: 'toolu_2', name: 'apply_patch', input: '*** Begin Patch', status: 'completed' },
    ]);
  });

  it('is read by the SDK, which fills output_text', async () => {
    const body = JSON.stringify(responsesFormat.encodeResponse(response, context));
    const client = new OpenAI({
      apiKey: 'k',
      baseURL: 'http://gateway.test/v1',
      maxRetries: 0,
      fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }),
    });
    const parsed = await client.responses.create({ model: 'public-model', input: 'hi' });
    expect(parsed.output_text).toBe('Hello there');
    expect(parsed.usage?.total_tokens).toBe(200);
  });

  it('reports a length stop as incomplete and an error stop as failed', () => {
    const incomplete = responsesFormat.encodeResponse({ ...response, finish: { reason: 'length' } }, context);
    expect(incomplete).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    const filtered = responsesFormat.encodeResponse({ ...response, finish: { reason: 'content-filter' } }, context);
    expect(filtered).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
    const failed = responsesFormat.encodeResponse({ ...response, finish: { reason: 'error' } }, context);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
  });

  it('precedes a tool call signed by another provider with a summary-less reasoning item holding the tagged signature', () => {
    const body = responsesFormat.encodeResponse(
      {
        ...response,
        id: 'gemini-1',
        content: [
          { type: 'tool-call', id: 'call_1', name: 'weather', arguments: '{}', blob: { provider: 'gemini', value: 'sig-call' } },
          { type: 'tool-call', id: 'call_2', name: 'weather', arguments: '{}' },
        ],
      },
      context,
    ) as { output: Record<string, unknown>[] };
    expect(body.output).toEqual([
      { type: 'reasoning', id: 'rs_gemini-1_0', summary: [], encrypted_content: 'switchyard.v1.gemini.signed.sig-call' },
      expect.objectContaining({ type: 'function_call', id: 'fc_gemini-1_1', call_id: 'call_1' }),
      expect.objectContaining({ type: 'function_call', id: 'fc_gemini-1_2', call_id: 'call_2' }),
    ]);
  });

  it('keeps an upstream resp_ id and its item ids', () => {
    const body = responsesFormat.encodeResponse(
      { ...response, id: 'resp_up', content: [{ type: 'tool-call', id: 'call_1', name: 'f', arguments: '', itemId: 'fc_up' }] },
      context,
    ) as { id: string; output: unknown[] };
    expect(body.id).toBe('resp_up');
    expect(body.output).toEqual([{ type: 'function_call', id: 'fc_up', call_id: 'call_1', name: 'f', arguments: '{}', status: 'completed' }]);
  });
});
