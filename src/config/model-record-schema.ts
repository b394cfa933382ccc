import { z } from 'zod';

/**
 * The parts of a model entry that describe what it sells: image rules, video variants and
 * prices. Every field is optional because well-known ids come with built-in records; what the
 * config gives overrides them field by field.
 */

/** A price as a decimal string of USD, e.g. "3.00" or "0.075". Parsed exactly, never as a float. */
export const decimalUsd = z.string().regex(/^\d+(\.\d+)?$/, 'a decimal number of USD as a string, e.g. "3.00"');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD');
const imageSize = z.string().regex(/^(\d+x\d+|auto)$/, 'a size WIDTHxHEIGHT or auto');
const positiveInteger = z.number().int().positive();

/** Numbers substituted from the environment (`port: ${PORT}`) arrive as strings: accept them when numeric. */
export function numeric<Schema extends z.ZodNumber>(schema: Schema) {
  return z.preprocess((value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value), schema);
}

const dimensionsSchema = z
  .object({
    min_width: positiveInteger,
    max_width: positiveInteger,
    min_height: positiveInteger,
    max_height: positiveInteger,
    multiple_of: positiveInteger.optional(),
    max_pixels: positiveInteger.optional(),
    min_aspect_ratio: z.number().positive().optional(),
    max_aspect_ratio: z.number().positive().optional(),
  })
  .strict();

export const imageRulesSchema = z
  .object({
    sizes: z.array(imageSize).min(1).optional(),
    dimensions: dimensionsSchema.optional(),
    qualities: z.array(z.string().min(1)).min(1).optional(),
    max_n: positiveInteger.optional(),
    response_formats: z.array(z.enum(['b64_json', 'url'])).min(1).optional(),
    /** What `response_format` means when the request leaves it out (dall-e-3 answered with URLs). */
    default_response_format: z.enum(['b64_json', 'url']).optional(),
    output_formats: z.array(z.enum(['png', 'jpeg', 'webp'])).min(1).optional(),
    backgrounds: z.array(z.string().min(1)).optional(),
    styles: z.array(z.string().min(1)).optional(),
    streaming: z.boolean().optional(),
    edits: z.boolean().optional(),
    max_prompt_length: positiveInteger.optional(),
    /** Edits: how many input images one request may carry, and how large each may be. */
    max_input_images: positiveInteger.optional(),
    max_input_image_bytes: positiveInteger.optional(),
  })
  .strict();

/** How a legacy model's parameters map onto the current model's. */
const legacyMappingSchema = z
  .object({
    quality: z.record(z.string(), z.string()).optional(),
    size: z.record(z.string(), imageSize).optional(),
    /** Parameters the legacy model took that the current one has no use for. */
    dropped: z.array(z.string()).optional(),
  })
  .strict();

const legacyAliasSchema = z.union([
  z.string().min(1),
  z.object({ id: z.string().min(1), image: imageRulesSchema.optional(), mapping: legacyMappingSchema.optional() }).strict(),
]);

const videoVariantSchema = z
  .object({
    mode: z.enum(['text-to-video', 'image-to-video']),
    resolution: z.string().regex(/^\d+p$/, 'a resolution such as 720p'),
    aspect_ratio: z.string().regex(/^\d+:\d+$/, 'an aspect ratio such as 16:9'),
    /** The size the variant means; derived from resolution and aspect ratio when left out. */
    size: z.string().regex(/^\d+x\d+$/, 'a size WIDTHxHEIGHT').optional(),
    seconds: z.array(z.union([positiveInteger, z.string().regex(/^\d+$/).transform(Number)])).min(1),
    usd_per_second: decimalUsd.optional(),
  })
  .strict();

export const videoRecordSchema = z
  .object({
    variants: z.array(videoVariantSchema).min(1).optional(),
    remix: z.boolean().optional(),
    /** The largest `input_reference` image accepted, in bytes. */
    max_input_reference_bytes: z.number().int().positive().optional(),
  })
  .strict();

/** One price, in force from `effective_from`. Without any rate of its own it marks up the default price. */
const priceEntrySchema = z
  .object({
    effective_from: isoDate.optional(),
    input_per_mtok: decimalUsd.optional(),
    output_per_mtok: decimalUsd.optional(),
    cache_read_per_mtok: decimalUsd.optional(),
    cache_write_per_mtok: decimalUsd.optional(),
    cache_write_1h_per_mtok: decimalUsd.optional(),
    reasoning_per_mtok: decimalUsd.optional(),
    /**
     * `quality/size` → USD per image, e.g. `"low/1024x1024": "0.011"`; the size `any` prices every
     * size (`"standard/any": "0.04"`) for models that take any size within their limits.
     */
    per_image: z.record(z.string().regex(/^[^/]+\/(\d+x\d+|any)$/, 'a tier quality/WIDTHxHEIGHT or quality/any'), decimalUsd).optional(),
    /**
     * USD per megapixel (a million pixels) of each image delivered, as vendors that bill by output
     * size do (FLUX.2): charged on the megapixels the upstream reports billing, else those measured.
     * Charged on top of any `per_image` tier.
     */
    per_megapixel: decimalUsd.optional(),
    /** `mode/resolution/aspect_ratio` → USD per second, for scheduled video prices. */
    per_second: z.record(z.string().regex(/^[^/]+\/\d+p\/\d+:\d+$/, 'a variant mode/resolution/aspect_ratio'), decimalUsd).optional(),
    markup_percent: z.string().regex(/^\d+(\.\d{1,4})?$/, 'a percentage as a string, e.g. "10" or "12.5"').optional(),
    /** Serves the model at no cost. Explicit, because a model without a price is refused to keys with a budget. */
    free: z.literal(true).optional(),
  })
  .strict()
  .refine((entry) => entry.free !== true || Object.keys(entry).every((field) => field === 'free' || field === 'effective_from'), {
    message: 'a free price names no rates and no markup',
    path: ['free'],
  });

export const priceSchema = z.union([priceEntrySchema, z.array(priceEntrySchema).min(1)]);

export type ImageRulesConfig = z.infer<typeof imageRulesSchema>;
export type LegacyAliasConfig = z.infer<typeof legacyAliasSchema>;
export type VideoRecordConfig = z.infer<typeof videoRecordSchema>;
export type VideoVariantConfig = z.infer<typeof videoVariantSchema>;
export type PriceEntryConfig = z.infer<typeof priceEntrySchema>;
export { legacyAliasSchema };
