import { z } from 'zod';

/**
 * The chat request fields Switchyard reads. Objects are loose so unknown fields survive: the
 * top-level ones ride in `extensions.chat` back to a chat upstream.
 */

const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const refusalPart = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });
const imageUrlPart = z.looseObject({
  type: z.literal('image_url'),
  // Some clients send the URL as a bare string instead of `{url}`.
  image_url: z.union([z.string(), z.looseObject({ url: z.string(), detail: z.enum(['auto', 'low', 'high']).optional() })], {
    error: 'expected an object with a `url` string',
  }),
});
const inputAudioPart = z.looseObject({
  type: z.literal('input_audio'),
  input_audio: z.looseObject({ data: z.string(), format: z.string() }),
});
const filePart = z.looseObject({
  type: z.literal('file'),
  file: z.looseObject({
    file_id: z.string().optional(),
    file_data: z.string().optional(),
    filename: z.string().optional(),
  }),
});

export const contentPartSchema = z.discriminatedUnion('type', [textPart, refusalPart, imageUrlPart, inputAudioPart, filePart]);
export type ChatContentPartInput = z.infer<typeof contentPartSchema>;

const content = z.union([z.string(), z.array(contentPartSchema)], {
  error: 'expected a string or an array of content parts',
});
const name = z.string().optional();

const toolCall = z.discriminatedUnion('type', [
  z.looseObject({
    id: z.string(),
    type: z.literal('function'),
    function: z.looseObject({ name: z.string(), arguments: z.string() }),
  }),
  z.looseObject({
    id: z.string(),
    type: z.literal('custom'),
    custom: z.looseObject({ name: z.string(), input: z.string() }),
  }),
]);

export const messageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content, name }),
  z.looseObject({ role: z.literal('developer'), content, name }),
  z.looseObject({ role: z.literal('user'), content, name }),
  z.looseObject({
    role: z.literal('assistant'),
    content: content.nullish(),
    name,
    refusal: z.string().nullish(),
    tool_calls: z.array(toolCall).nullish(),
    function_call: z.looseObject({ name: z.string(), arguments: z.string() }).nullish(),
    // Compat convention: some clients echo the model's visible reasoning back.
    reasoning_content: z.string().nullish(),
  }),
  z.looseObject({ role: z.literal('tool'), content, tool_call_id: z.string() }),
  z.looseObject({ role: z.literal('function'), content: z.string().nullable(), name: z.string() }),
]);
export type ChatMessageInput = z.infer<typeof messageSchema>;

export const functionToolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});
export const customToolSchema = z.looseObject({
  type: z.literal('custom'),
  custom: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    format: z.record(z.string(), z.unknown()).optional(),
  }),
});
/** Tools are checked by `type` one by one (see decode-tools.ts), so a bad function tool is not taken for another kind. */
export const toolSchema = z.looseObject({ type: z.string() });

export const toolChoiceSchema = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
    z.looseObject({ type: z.literal('custom'), custom: z.looseObject({ name: z.string() }) }),
    z.looseObject({
      type: z.literal('allowed_tools'),
      allowed_tools: z.looseObject({ mode: z.enum(['auto', 'required']), tools: z.array(z.unknown()) }),
    }),
  ],
  { error: "expected 'none', 'auto', 'required' or {type:'function', function:{name}}" },
);
export type ChatToolChoiceInput = z.infer<typeof toolChoiceSchema>;

export const responseFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
      description: z.string().optional(),
    }),
  }),
]);

const count = z.number().int().nonnegative();

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1, 'must be a non-empty string'),
  messages: z.array(messageSchema).min(1, 'must contain at least one message'),
  tools: z.array(toolSchema).nullish(),
  tool_choice: toolChoiceSchema.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  response_format: responseFormatSchema.nullish(),
  stop: z.union([z.string(), z.array(z.string())], { error: 'expected a string or an array of strings' }).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  seed: z.number().int().nullish(),
  n: z.number().int().min(1).nullish(),
  max_tokens: count.nullish(),
  max_completion_tokens: count.nullish(),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  user: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
export type ChatRequestInput = z.infer<typeof chatRequestSchema>;

/** Top-level fields the IR models; every other field goes to `extensions.chat`. */
export const modeledRequestFields: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'stop',
  'temperature',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'seed',
  'n',
  'max_tokens',
  'max_completion_tokens',
  'reasoning_effort',
  'stream',
  'user',
  'metadata',
]);
