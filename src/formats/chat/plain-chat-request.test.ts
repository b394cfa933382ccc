import { describe, expect, it } from 'vitest';
import { chatRequestSchema } from './chat-request-schema.js';
import { isPlainChatRequest } from './plain-chat-request.js';

/** The body of `POST /v1/chat/completions` most clients send: a system prompt and a question. */
const common = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Explain in one paragraph what an API gateway for LLMs does.' },
  ],
  temperature: 0.2,
  max_tokens: 256,
};

const plainBodies: ReadonlyArray<Record<string, unknown>> = [
  common,
  { ...common, stream: true, stream_options: { include_usage: true } },
  { model: 'm', messages: [{ role: 'developer', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b', cache_control: {} }] }] },
  { model: 'm', messages: [{ role: 'user', content: 'q', name: 'ann' }, { role: 'assistant', content: null, refusal: null, tool_calls: null }, { role: 'assistant', content: 'a', reasoning_content: 'r' }] },
  { model: 'm', messages: [{ role: 'tool', tool_call_id: 'c', content: 'done' }], tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'auto', parallel_tool_calls: false },
  { model: 'm', messages: [{ role: 'user', content: '' }], stop: ['a', 'b'], top_p: 1, seed: -3, n: 2, frequency_penalty: -2, presence_penalty: 2, user: 'u', metadata: { a: 'b' } },
  { model: 'm', messages: [{ role: 'user', content: 'q' }], response_format: { type: 'json_object' }, reasoning_effort: 'low', max_completion_tokens: 0, stop: 'x', x_unknown: { deep: [1] } },
  { model: 'm', messages: [{ role: 'user', content: 'q', extra: 1 }], temperature: null, top_p: null, stream: null, user: null, metadata: null, tools: null, tool_choice: null },
];

/** Bodies the schema refuses or that hold shapes left to it: the hand check must never accept the refused ones. */
const otherBodies: ReadonlyArray<Record<string, unknown>> = [
  {},
  { model: 'm' },
  { messages: common.messages },
  { model: '', messages: common.messages },
  { model: 5, messages: common.messages },
  { model: 'm', messages: [] },
  { model: 'm', messages: {} },
  { model: 'm', messages: [null] },
  { model: 'm', messages: [[]] },
  { model: 'm', messages: [{ role: 'user' }] },
  { model: 'm', messages: [{ role: 'user', content: null }] },
  { model: 'm', messages: [{ role: 'user', content: 5 }] },
  { model: 'm', messages: [{ role: 'user', content: 'q', name: null }] },
  { model: 'm', messages: [{ role: 'user', content: 'q', name: 5 }] },
  { model: 'm', messages: [{ role: 'robot', content: 'q' }] },
  { model: 'm', messages: [{ content: 'q' }] },
  { model: 'm', messages: [{ role: 'tool', content: 'q' }] },
  { model: 'm', messages: [{ role: 'user', content: [{ type: 'text' }] }] },
  { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] },
  { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }] },
  { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: 5 }] }] },
  { model: 'm', messages: [{ role: 'user', content: ['text'] }] },
  { model: 'm', messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }] },
  { model: 'm', messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function' }] }] },
  { model: 'm', messages: [{ role: 'assistant', refusal: 5 }] },
  { model: 'm', messages: [{ role: 'function', name: 'f', content: null }] },
  { ...common, temperature: 2.5 },
  { ...common, temperature: -0.1 },
  { ...common, temperature: '0.2' },
  { ...common, top_p: 1.5 },
  { ...common, frequency_penalty: -3 },
  { ...common, presence_penalty: 2.01 },
  { ...common, max_tokens: -1 },
  { ...common, max_tokens: 1.5 },
  { ...common, max_tokens: '256' },
  { ...common, max_completion_tokens: 2 ** 60 },
  { ...common, seed: 0.5 },
  { ...common, n: 0 },
  { ...common, stream: 'yes' },
  { ...common, stream_options: { include_usage: null } },
  { ...common, stream_options: [] },
  { ...common, stop: [1] },
  { ...common, stop: 5 },
  { ...common, user: 5 },
  { ...common, metadata: { a: 1 } },
  { ...common, metadata: [] },
  { ...common, tools: [{ function: { name: 'f' } }] },
  { ...common, tools: {} },
  { ...common, tool_choice: 'sometimes' },
  { ...common, tool_choice: { type: 'function', function: { name: 'f' } } },
  { ...common, response_format: { type: 'json_schema', json_schema: { name: 'x' } } },
  { ...common, response_format: { type: 'yaml' } },
  { ...common, reasoning_effort: 'extreme' },
  { ...common, parallel_tool_calls: 'no' },
];

describe('checking the common chat request shapes by hand', () => {
  it.each(plainBodies)('takes a common body as the schema reads it: %j', (body) => {
    expect(isPlainChatRequest(body)).toBe(true);
    const parsed = chatRequestSchema.safeParse(body);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(body);
  });

  it.each(otherBodies)('leaves every other body to the schema: %j', (body) => {
    const accepted = isPlainChatRequest(body);
    if (accepted) expect(chatRequestSchema.safeParse(body).data).toEqual(body);
    else expect(accepted).toBe(false);
  });

  it('never accepts what the schema refuses, over every field given every kind of value', () => {
    const values: unknown[] = [null, true, false, 0, -1, 1, 0.5, 2, 2.5, -2.5, 256, 2 ** 60, '', 'auto', 'text', 'low', [], ['a'], [1], {}, { type: 'text' }, { include_usage: true }, { a: 'b' }, { a: 1 }];
    const fields = [...Object.keys(chatRequestSchema.shape), 'x_unknown'];
    let compared = 0;
    for (const field of fields) {
      for (const value of values) {
        const body = { ...common, [field]: value };
        const verdict = chatRequestSchema.safeParse(body);
        if (isPlainChatRequest(body)) {
          expect(verdict.success, `${field}: ${JSON.stringify(value)}`).toBe(true);
          expect(verdict.data).toEqual(body);
        }
        compared++;
      }
    }
    expect(compared).toBe(fields.length * values.length);
  });

  it('never accepts a message the schema refuses, over every message field given every kind of value', () => {
    const values: unknown[] = [undefined, null, true, 0, '', 'q', [], [{ type: 'text', text: 'a' }], [{ type: 'text' }], [{ type: 'refusal', refusal: 'r' }], {}, { name: 'f', arguments: '{}' }];
    const roles = ['system', 'developer', 'user', 'assistant', 'tool', 'function', 'robot'];
    const fields = ['content', 'name', 'refusal', 'tool_calls', 'function_call', 'reasoning_content', 'tool_call_id'];
    for (const role of roles) {
      for (const field of fields) {
        for (const value of values) {
          const message: Record<string, unknown> = { role, content: 'q', tool_call_id: 'c', name: 'n', [field]: value };
          if (value === undefined) delete message[field];
          const body = { model: 'm', messages: [message] };
          if (isPlainChatRequest(body)) {
            const verdict = chatRequestSchema.safeParse(body);
            expect(verdict.success, `${role}.${field}: ${JSON.stringify(value)}`).toBe(true);
            expect(verdict.data).toEqual(body);
          }
        }
      }
    }
  });
});
