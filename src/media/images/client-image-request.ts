import { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';
import { parseOrThrow } from '../../formats/validation/openai-parse-or-throw.js';
import type { ImageInput } from '../../ir/image-generation.js';

/**
 * The OpenAI Images request (generations and edits) as clients send it. Types are checked here;
 * what a value may be is the model's business and is checked against its rules afterwards.
 */
const imageRequestSchema = z
  .object({
    model: z.string().min(1).optional(),
    prompt: z.string().min(1, 'the prompt must not be empty'),
    n: z.number().int().min(1, 'n must be at least 1').optional(),
    size: z.string().optional(),
    quality: z.string().optional(),
    response_format: z.enum(['url', 'b64_json']).optional(),
    output_format: z.string().optional(),
    output_compression: z.number().int().min(0).max(100).optional(),
    background: z.string().optional(),
    moderation: z.enum(['low', 'auto']).optional(),
    style: z.string().optional(),
    user: z.string().optional(),
    stream: z.boolean().optional(),
    partial_images: z.number().int().min(0).max(3).optional(),
    input_fidelity: z.enum(['low', 'high']).optional(),
  })
  .strict();

export type ClientImageFields = z.output<typeof imageRequestSchema>;

export interface ClientImageRequest extends ClientImageFields {
  /** Edits: the images to edit (one or several), in the order sent. */
  readonly images?: readonly ImageInput[];
  readonly mask?: ImageInput;
}

/** Checks the fields' types; an unknown field is refused as OpenAI refuses it. */
export function decodeImageFields(body: Record<string, unknown>): ClientImageFields {
  const known = new Set(Object.keys(imageRequestSchema.shape));
  for (const name of Object.keys(body)) {
    if (!known.has(name)) throw new GatewayError('unknown_parameter', `Unknown parameter: '${name}'.`, { param: name });
  }
  return parseOrThrow(imageRequestSchema, body);
}
