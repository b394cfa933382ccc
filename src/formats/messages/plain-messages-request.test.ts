import { describe, expect, it } from 'vitest';
import { messagesRequestSchema } from './messages-request-schema.js';
import { isPlainMessagesRequest } from './plain-messages-request.js';

/** The body of `POST /v1/messages` most clients send: a system prompt and a question. */
const common = {
  model: 'claude-3-5-haiku-latest',
  max_tokens: 256,
  system: 'You are a helpful assistant.',
  messages: [{ role: 'user', content: 'Explain in one paragraph what an API gateway for LLMs does.' }],
};

const plainBodies: ReadonlyArray<Record<string, unknown>> = [
  common,
  { ...common, stream: true, temperature: 1, top_p: 0, top_k: 5, stop_sequences: ['x'], metadata: { user_id: 'u' } },
  { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image', source: {} }] }, { role: 'assistant', content: '' }] },
  { model: 'm', max_tokens: 1, system: [{ type: 'text', text: 's', cache_control: null }], messages: [{ role: 'system', content: 's' }], tools: [{ name: 't', input_schema: {} }], metadata: { user_id: null }, x_unknown: [1] },
];

const otherBodies: ReadonlyArray<Record<string, unknown>> = [
  {},
  { model: 'm', messages: common.messages },
  { model: '', max_tokens: 1, messages: common.messages },
  { model: 'm', max_tokens: 0, messages: common.messages },
  { model: 'm', max_tokens: 1.5, messages: common.messages },
  { model: 'm', max_tokens: '1', messages: common.messages },
  { model: 'm', max_tokens: 1, messages: [] },
  { model: 'm', max_tokens: 1, messages: [{ role: 'tool', content: 'q' }] },
  { model: 'm', max_tokens: 1, messages: [{ role: 'user' }] },
  { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ text: 'a' }] }] },
  { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [null] }] },
  { ...common, system: [{ type: 'text' }] },
  { ...common, system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }] },
  { ...common, system: [{ type: 'image', text: 's' }] },
  { ...common, system: 5 },
  { ...common, system: null },
  { ...common, temperature: 1.5 },
  { ...common, temperature: null },
  { ...common, top_k: -1 },
  { ...common, stop_sequences: 'x' },
  { ...common, stream: null },
  { ...common, metadata: { user_id: 5 } },
  { ...common, tools: [[]] },
  { ...common, tools: {} },
  { ...common, tool_choice: { type: 'auto' } },
  { ...common, thinking: { type: 'enabled', budget_tokens: 1024 } },
  { ...common, output_config: { effort: 'low' } },
];

describe('checking the common Messages request shapes by hand', () => {
  it.each(plainBodies)('takes a common body as the schema reads it: %j', (body) => {
    expect(isPlainMessagesRequest(body)).toBe(true);
    const parsed = messagesRequestSchema.safeParse(body);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(body);
  });

  it.each(otherBodies)('leaves every other body to the schema: %j', (body) => {
    const accepted = isPlainMessagesRequest(body);
    if (accepted) expect(messagesRequestSchema.safeParse(body).data).toEqual(body);
    else expect(accepted).toBe(false);
  });

  it('never accepts what the schema refuses, over every field given every kind of value', () => {
    const values: unknown[] = [null, true, 0, -1, 1, 0.5, 1.5, 2 ** 60, '', 'auto', [], ['a'], [1], [{ type: 'text', text: 't' }], [{ type: 'text' }], [{}], {}, { type: 'auto' }, { user_id: 'u' }, { user_id: 1 }];
    const fields = [...Object.keys(messagesRequestSchema.shape), 'x_unknown'];
    for (const field of fields) {
      for (const value of values) {
        const body = { ...common, [field]: value };
        if (isPlainMessagesRequest(body)) {
          const verdict = messagesRequestSchema.safeParse(body);
          expect(verdict.success, `${field}: ${JSON.stringify(value)}`).toBe(true);
          expect(verdict.data).toEqual(body);
        }
      }
    }
  });

  it('never accepts a turn the schema refuses, over every role and content', () => {
    const roles: unknown[] = ['user', 'assistant', 'system', 'tool', 'developer', 5, undefined];
    const contents: unknown[] = [undefined, null, '', 'q', 5, [], [{ type: 'text', text: 'a' }], [{ type: 5 }], [{}], ['q'], {}];
    for (const role of roles) {
      for (const content of contents) {
        const body = { ...common, messages: [{ role, content }] };
        if (isPlainMessagesRequest(body)) {
          const verdict = messagesRequestSchema.safeParse(body);
          expect(verdict.success, `${String(role)}: ${JSON.stringify(content)}`).toBe(true);
          expect(verdict.data).toEqual(body);
        }
      }
    }
  });
});
