import { z } from 'zod';

/**
 * The Messages request fields Switchyard reads. Objects are loose so unknown fields survive: the
 * top-level ones ride in `extensions.messages` back to an Anthropic upstream. Content blocks and
 * tools are checked one by one by `type` (see decode-content.ts, decode-tools.ts), so an error
 * names the exact block and a block type added to the API later gets a clear refusal.
 */

export const cacheControlSchema = z.looseObject({ type: z.literal('ephemeral'), ttl: z.string().optional() });

/** Any block: its `type` picks the schema it is checked against next. */
export const blockSchema = z.looseObject({ type: z.string() });
export type BlockInput = z.infer<typeof blockSchema>;

const content = z.union([z.string(), z.array(blockSchema)], { error: 'expected a string or an array of content blocks' });

export const textBlockSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  cache_control: cacheControlSchema.nullish(),
});

export const imageBlockSchema = z.looseObject({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
    z.looseObject({ type: z.literal('url'), url: z.string() }),
    z.looseObject({ type: z.literal('file'), file_id: z.string() }),
  ]),
  cache_control: cacheControlSchema.nullish(),
});

export const documentBlockSchema = z.looseObject({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
    z.looseObject({ type: z.literal('text'), media_type: z.string(), data: z.string() }),
    z.looseObject({ type: z.literal('url'), url: z.string() }),
    z.looseObject({ type: z.literal('file'), file_id: z.string() }),
  ]),
  title: z.string().nullish(),
  cache_control: cacheControlSchema.nullish(),
});

export const toolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});

export const toolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: content.optional(),
  is_error: z.boolean().nullish(),
  cache_control: cacheControlSchema.nullish(),
});

export const thinkingBlockSchema = z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
export const redactedThinkingBlockSchema = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });

export const messageSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content,
});
export type MessageInput = z.infer<typeof messageSchema>;

/** A client tool; server tools (a `type` other than "custom") are kept whole instead. */
export const customToolSchema = z.looseObject({
  name: z.string().min(1, 'must be a non-empty string'),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()),
  cache_control: cacheControlSchema.nullish(),
  strict: z.boolean().optional(),
});

export const toolChoiceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('tool'), name: z.string(), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('none') }),
]);
export type ToolChoiceInput = z.infer<typeof toolChoiceSchema>;

export const thinkingSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('enabled'), budget_tokens: z.number().int().nonnegative() }),
  z.looseObject({ type: z.literal('adaptive') }),
  z.looseObject({ type: z.literal('disabled') }),
]);
export type ThinkingInput = z.infer<typeof thinkingSchema>;

export const outputConfigSchema = z.looseObject({
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).nullish(),
  format: z
    .looseObject({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) })
    .nullish(),
});

const systemSchema = z.union([z.string(), z.array(textBlockSchema)], { error: 'expected a string or an array of text blocks' });

/** Fields shared by `/v1/messages` and `/v1/messages/count_tokens`. */
const commonFields = {
  model: z.string().min(1, 'must be a non-empty string'),
  messages: z.array(messageSchema).min(1, 'must contain at least one message'),
  system: systemSchema.optional(),
  tools: z.array(z.looseObject({})).optional(),
  tool_choice: toolChoiceSchema.optional(),
  thinking: thinkingSchema.optional(),
  output_config: outputConfigSchema.optional(),
};

export const messagesRequestSchema = z.looseObject({
  ...commonFields,
  max_tokens: z.number().int().min(1),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().nonnegative().optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
  stream: z.boolean().optional(),
});
export type MessagesRequestInput = z.infer<typeof messagesRequestSchema>;

/** `count_tokens` takes the prompt fields only: no `max_tokens`, no sampling, no `stream`. */
export const countTokensRequestSchema = z.looseObject(commonFields);

/** Top-level fields the IR models in full; every other field goes to `extensions.messages`. */
export const modeledRequestFields: ReadonlySet<string> = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'stop_sequences',
  'temperature',
  'top_p',
  'top_k',
  'stream',
]);
