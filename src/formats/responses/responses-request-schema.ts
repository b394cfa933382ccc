import { z } from 'zod';

/**
 * The Responses request fields Switchyard reads. Objects are loose so unknown fields survive:
 * the top-level ones ride in `extensions.responses` back to a Responses upstream. Input items and
 * tools are checked one by one by their `type` (see decode-input.ts and decode-tools.ts), so an
 * error names the field of the kind the client meant.
 */

const detail = z.enum(['auto', 'low', 'high']).nullish();

export const inputContentPartSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('input_text'), text: z.string() }),
  z.looseObject({ type: z.literal('input_image'), image_url: z.string().nullish(), file_id: z.string().nullish(), detail }),
  z.looseObject({
    type: z.literal('input_file'),
    file_id: z.string().nullish(),
    file_data: z.string().nullish(),
    file_url: z.string().nullish(),
    filename: z.string().nullish(),
  }),
  z.looseObject({ type: z.literal('input_audio'), input_audio: z.looseObject({ data: z.string(), format: z.string() }) }),
  // Assistant history parts.
  z.looseObject({ type: z.literal('output_text'), text: z.string() }),
  z.looseObject({ type: z.literal('refusal'), refusal: z.string() }),
  // Tolerated: some clients write chat's `text` part type inside Responses input.
  z.looseObject({ type: z.literal('text'), text: z.string() }),
]);
export type ResponsesContentPartInput = z.infer<typeof inputContentPartSchema>;

const content = z.union([z.string(), z.array(inputContentPartSchema)], {
  error: 'expected a string or an array of content parts',
});

export const messageItemSchema = z.looseObject({
  type: z.literal('message').optional(),
  id: z.string().nullish(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content,
});
export type MessageItemInput = z.infer<typeof messageItemSchema>;

const itemId = z.string().nullish();

export const functionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  id: itemId,
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
  namespace: z.string().nullish(),
});

export const customToolCallItemSchema = z.looseObject({
  type: z.literal('custom_tool_call'),
  id: itemId,
  call_id: z.string().min(1),
  name: z.string().min(1),
  input: z.string(),
  namespace: z.string().nullish(),
});

const toolOutput = z.union([z.string(), z.array(inputContentPartSchema)], {
  error: 'expected a string or an array of content parts',
});

export const callOutputItemSchema = z.looseObject({
  type: z.enum(['function_call_output', 'custom_tool_call_output']),
  id: itemId,
  call_id: z.string().min(1),
  output: toolOutput,
});
export type CallOutputItemInput = z.infer<typeof callOutputItemSchema>;

export const reasoningItemSchema = z.looseObject({
  type: z.literal('reasoning'),
  id: itemId,
  summary: z.array(z.looseObject({ type: z.string(), text: z.string() })).nullish(),
  encrypted_content: z.string().nullish(),
  content: z.array(z.looseObject({ type: z.string(), text: z.string() })).nullish(),
});

export const itemReferenceSchema = z.looseObject({ type: z.literal('item_reference'), id: z.string().min(1) });

export const functionToolSchema = z.looseObject({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

export const customToolSchema = z.looseObject({
  type: z.literal('custom'),
  name: z.string().min(1),
  description: z.string().nullish(),
  format: z.record(z.string(), z.unknown()).nullish(),
});

export const namespaceToolSchema = z.looseObject({
  type: z.literal('namespace'),
  name: z.string().min(1),
  description: z.string().nullish(),
  tools: z.array(z.looseObject({ type: z.string() })),
});

export const toolChoiceSchema = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.looseObject({ type: z.literal('function'), name: z.string().min(1) }),
    z.looseObject({ type: z.literal('custom'), name: z.string().min(1) }),
    z.looseObject({ type: z.literal('allowed_tools'), mode: z.enum(['auto', 'required']), tools: z.array(z.unknown()) }),
    // Hosted tools are chosen by their type alone (`{type:"web_search"}`, `{type:"mcp", server_label}`).
    z.looseObject({ type: z.string().min(1) }),
  ],
  { error: "expected 'none', 'auto', 'required' or a tool choice object" },
);
export type ResponsesToolChoiceInput = z.infer<typeof toolChoiceSchema>;

const effort = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

export const textFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    name: z.string().min(1),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().nullish(),
    description: z.string().nullish(),
  }),
]);

export const responsesRequestSchema = z.looseObject({
  model: z.string().min(1, 'must be a non-empty string'),
  input: z.union([z.string(), z.array(z.looseObject({}))], { error: 'expected a string or an array of input items' }).nullish(),
  instructions: z.string().nullish(),
  tools: z.array(z.looseObject({ type: z.string() })).nullish(),
  tool_choice: toolChoiceSchema.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  reasoning: z.looseObject({ effort: effort.nullish(), summary: z.enum(['auto', 'concise', 'detailed']).nullish() }).nullish(),
  text: z.looseObject({ format: textFormatSchema.nullish() }).nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  stream: z.boolean().nullish(),
  user: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
export type ResponsesRequestInput = z.infer<typeof responsesRequestSchema>;

/**
 * Top-level fields the IR models; every other field (store, include, prompt_cache_key,
 * previous_response_id, client_metadata, truncation, …) goes to `extensions.responses`.
 * `text` and `reasoning` are modeled in part: their other keys (e.g. `text.verbosity`) ride there too.
 */
export const modeledRequestFields: ReadonlySet<string> = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning',
  'text',
  'max_output_tokens',
  'temperature',
  'top_p',
  'stream',
  'user',
  'metadata',
]);
