import { z } from 'zod';
import { imageRulesSchema, legacyAliasSchema, numeric, priceSchema, videoRecordSchema } from './model-record-schema.js';

export const providerTypes = ['openai', 'openai-compatible', 'anthropic', 'gemini'] as const;

const providerSchema = z
  .object({
    type: z.enum(providerTypes),
    /** The API root as the vendor's SDK takes it, or `builtin:sim` for the in-process simulator. */
    base_url: z.string().min(1).optional(),
    api_key: z.string().optional(),
    /** Extra headers sent to this upstream on every call. */
    headers: z.record(z.string(), z.string()).optional(),
    timeout_ms: numeric(z.number().int().positive()).optional(),
    /** For openai-compatible servers that also serve the Responses API. */
    responses: z.boolean().optional(),
  })
  .strict();

const routeSchema = z
  .object({
    provider: z.string().min(1),
    model: z.string().min(1),
    /** Time allowed until the upstream's first byte. */
    timeout_ms: numeric(z.number().int().positive()).optional(),
  })
  .strict();

const modelSchema = z
  .object({
    id: z.string().min(1),
    aliases: z.array(z.string().min(1)).default([]),
    output_modality: z.enum(['text', 'image', 'video']).default('text'),
    owned_by: z.string().optional(),
    /** Older ids served by this model, each checked against its own rules (image models). */
    legacy_aliases: z.array(legacyAliasSchema).default([]),
    routes: z.array(routeSchema).min(1),
    image: imageRulesSchema.optional(),
    video: videoRecordSchema.optional(),
    price: priceSchema.optional(),
  })
  .strict();

export const configSchema = z
  .object({
    server: z
      .object({
        host: z.string().default('127.0.0.1'),
        port: numeric(z.number().int().min(0).max(65535)).default(8787),
        /** Largest accepted request body; long coding-agent conversations reach several MiB. */
        body_limit_bytes: numeric(z.number().int().positive()).default(32 * 1024 * 1024),
        /** Require an API key on discovery endpoints (they are public by default). */
        discovery_requires_key: z.boolean().default(false),
        /** Accept requests without any API key (the out-of-the-box default until a key exists). */
        open_access: z.enum(['auto', 'always', 'never']).default('auto'),
        /** Reload providers, models, prices and routing when the config file changes, as on SIGHUP. */
        watch_config: z.boolean().default(false),
      })
      .strict()
      .default({ host: '127.0.0.1', port: 8787, body_limit_bytes: 32 * 1024 * 1024, discovery_requires_key: false, open_access: 'auto', watch_config: false }),
    database: z.object({ url: z.string().min(1) }).strict().default({ url: 'sqlite:./data/switchyard.db' }),
    redis: z.object({ url: z.string().min(1) }).strict().optional(),
    routing: z
      .object({
        /** Attempts per route on a retryable failure before falling back to the next route. */
        attempts_per_route: numeric(z.number().int().min(1).max(10)).default(2),
        backoff_ms: numeric(z.number().int().min(0)).default(100),
        timeout_ms: numeric(z.number().int().positive()).default(60_000),
      })
      .strict()
      .default({ attempts_per_route: 2, backoff_ms: 100, timeout_ms: 60_000 }),
    log: z
      .object({
        level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
        /** `auto`: readable lines when stdout is a terminal, JSON lines otherwise (process managers, collectors). */
        format: z.enum(['auto', 'json', 'readable']).default('auto'),
      })
      .strict()
      .default({ level: 'info', format: 'auto' }),
    providers: z.record(z.string().min(1), providerSchema).default({}),
    models: z.array(modelSchema).default([]),
  })
  .strict();

export type GatewayConfig = z.infer<typeof configSchema>;
export type ProviderConfig = z.infer<typeof providerSchema>;
export type ModelConfig = z.infer<typeof modelSchema>;
export type RouteConfig = z.infer<typeof routeSchema>;
