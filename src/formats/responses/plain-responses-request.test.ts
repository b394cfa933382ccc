import { describe, expect, it } from 'vitest';
import { responsesRequestSchema } from './responses-request-schema.js';
import { isPlainResponsesRequest } from './plain-responses-request.js';

/** The body of `POST /v1/responses` most clients send: instructions and a question. */
const common = {
  model: 'gpt-4o-mini',
  instructions: 'You are a helpful assistant.',
  input: [{ role: 'user', content: [{ type: 'input_text', text: 'Explain in one paragraph what an API gateway for LLMs does.' }] }],
  max_output_tokens: 256,
};

const plainBodies: ReadonlyArray<Record<string, unknown>> = [
  common,
  { model: 'm', input: 'q' },
  { model: 'm' },
  { ...common, stream: true, temperature: 2, top_p: 0, user: 'u', metadata: { a: 'b' }, tools: [{ type: 'function', name: 'f' }], tool_choice: 'auto', parallel_tool_calls: true, store: false },
  { ...common, input: null, instructions: null, tools: null, tool_choice: null, reasoning: null, text: null, max_output_tokens: null, stream: null, user: null, metadata: null },
];

const otherBodies: ReadonlyArray<Record<string, unknown>> = [
  {},
  { model: '' },
  { model: 5 },
  { ...common, input: 5 },
  { ...common, input: ['q'] },
  { ...common, input: [[]] },
  { ...common, instructions: 5 },
  { ...common, tools: [{}] },
  { ...common, tool_choice: 'sometimes' },
  { ...common, tool_choice: { type: 'function', name: 'f' } },
  { ...common, reasoning: { effort: 'low' } },
  { ...common, text: { format: { type: 'text' } } },
  { ...common, max_output_tokens: 0 },
  { ...common, max_output_tokens: 1.5 },
  { ...common, temperature: 3 },
  { ...common, top_p: -1 },
  { ...common, stream: 'yes' },
  { ...common, metadata: { a: 1 } },
];

describe('checking the common Responses request shapes by hand', () => {
  it.each(plainBodies)('takes a common body as the schema reads it: %j', (body) => {
    expect(isPlainResponsesRequest(body)).toBe(true);
    const parsed = responsesRequestSchema.safeParse(body);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(body);
  });

  it.each(otherBodies)('leaves every other body to the schema: %j', (body) => {
    const accepted = isPlainResponsesRequest(body);
    if (accepted) expect(responsesRequestSchema.safeParse(body).data).toEqual(body);
    else expect(accepted).toBe(false);
  });

  it('never accepts what the schema refuses, over every field given every kind of value', () => {
    const values: unknown[] = [null, true, 0, -1, 1, 0.5, 2.5, 2 ** 60, '', 'auto', [], ['a'], [{}], [{ type: 'function' }], {}, { effort: 'low' }, { a: 'b' }, { a: 1 }];
    const fields = [...Object.keys(responsesRequestSchema.shape), 'x_unknown'];
    for (const field of fields) {
      for (const value of values) {
        const body = { ...common, [field]: value };
        if (isPlainResponsesRequest(body)) {
          const verdict = responsesRequestSchema.safeParse(body);
          expect(verdict.success, `${field}: ${JSON.stringify(value)}`).toBe(true);
          expect(verdict.data).toEqual(body);
        }
      }
    }
  });
});
