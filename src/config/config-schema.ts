import { z } from 'zod';
import { imageRulesSchema, legacyAliasSchema, numeric, priceSchema, videoRecordSchema } from './model-record-schema.js';
import { clientLimitDefaults, clientLimitsShape } from './client-limits-schema.js';
import { databaseSchema } from './database-schema.js';
import { routingSchema } from './routing-schema.js';
import { builtinSimulatorUrl } from './default-config.js';

export const providerTypes = ['openai', 'openai-compatible', 'anthropic', 'gemini', 'bedrock', 'vertex', 'azure', 'bfl', 'runway', 'fal', 'replicate', 'minimax'] as const;

/**
 * Checked at load: without its scheme (`api.example.com/v1`, `localhost:11434`) a URL would pass as
 * text and fail every call with a 500 instead. The value is not repeated: it may carry a secret.
 */
const providerBaseUrlSchema = z
  .string()
  .min(1)
  .refine(
    (value) => value === builtinSimulatorUrl || (URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol)),
    'expected an absolute URL starting with http:// or https:// (such as https://api.example.com/v1), or builtin:sim',
  );

const providerSchema = z
  .object({
    type: z.enum(providerTypes),
    /** The API root as the vendor's SDK takes it, or `builtin:sim` for the in-process simulator. */
    base_url: providerBaseUrlSchema.optional(),
    api_key: z.string().optional(),
    /** Extra headers sent to this upstream on every call. */
    headers: z.record(z.string(), z.string()).optional(),
    timeout_ms: numeric(z.number().int().positive()).optional(),
    /** For openai-compatible servers that also serve the Responses API. */
    responses: z.boolean().optional(),
    /**
     * The upstream's own quota of concurrent requests, held across every instance (through Redis
     * when configured). A route to a provider at its cap is skipped like a failed route; with every
     * route at its cap the client gets 429 `upstream_busy`.
     */
    max_concurrency: numeric(z.number().int().positive()).optional(),
    /** bedrock: the AWS region, and a credential when the SDK's default chain is not used. */
    region: z.string().min(1).optional(),
    access_key_id: z.string().min(1).optional(),
    secret_access_key: z.string().min(1).optional(),
    session_token: z.string().min(1).optional(),
    /** vertex: the Google Cloud project and location, and a service account key file when ADC is not used. */
    project: z.string().min(1).optional(),
    location: z.string().min(1).optional(),
    credentials_file: z.string().min(1).optional(),
    /** azure: the API version of the classic path shape (`…/openai/deployments/{deployment}/…`). */
    api_version: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((provider, context) => {
    const refuse = (field: string, message: string): void => {
      context.addIssue({ code: 'custom', path: [field], message });
    };
    const own = kindFields[provider.type];
    for (const field of cloudFields) {
      if (provider[field] !== undefined && !own.includes(field)) refuse(field, `only ${cloudFieldOwners(field)} providers take ${field}`);
    }
    if (provider.type === 'bedrock') {
      if (provider.region === undefined) refuse('region', 'a bedrock provider needs its AWS region (such as us-east-1)');
      const keyPair = [provider.access_key_id, provider.secret_access_key].filter((value) => value !== undefined).length;
      if (keyPair === 1) refuse(provider.access_key_id === undefined ? 'access_key_id' : 'secret_access_key', 'access_key_id and secret_access_key go together');
      if (provider.session_token !== undefined && keyPair === 0) refuse('session_token', 'a session token goes with access_key_id and secret_access_key');
      if (provider.api_key !== undefined && keyPair > 0) refuse('api_key', 'a Bedrock API key replaces access_key_id and secret_access_key: give one or the other');
    }
    if (provider.type === 'vertex') {
      if (provider.project === undefined) refuse('project', 'a vertex provider needs its Google Cloud project');
      if (provider.location === undefined) refuse('location', 'a vertex provider needs its location (such as us-east5, or global)');
      // The simulator is called with a fixed local token; a key file there would be read for nothing.
      if (provider.base_url === builtinSimulatorUrl && provider.credentials_file !== undefined) refuse('credentials_file', 'a vertex provider on builtin:sim takes no credentials_file: the simulator is called with a fixed local token');
    }
    if (provider.type === 'azure') {
      if (provider.base_url === undefined) refuse('base_url', 'an azure provider needs its resource URL (https://{resource}.openai.azure.com/openai/v1, or the classic https://{resource}.openai.azure.com with api_version)');
      else if (provider.base_url === builtinSimulatorUrl) {
        // The simulator answers both forms (the classic one when an API version is given) and takes any key, but does not play Entra ID.
        if (provider.api_key === undefined) refuse('api_key', 'an azure provider on builtin:sim needs an api_key (any value): the simulator does not issue Entra ID tokens');
      } else if (isAzureV1Url(provider.base_url)) {
        if (provider.api_version !== undefined) refuse('api_version', 'the v1 API (a base_url ending in /openai/v1) takes no api_version');
      } else if (provider.api_version === undefined) {
        refuse('api_version', 'the classic Azure form (a base_url without /openai/v1) needs api_version (such as 2025-04-01-preview)');
      }
    }
  });

/** The settings only some kinds take, and which. */
const cloudFields = ['region', 'access_key_id', 'secret_access_key', 'session_token', 'project', 'location', 'credentials_file', 'api_version'] as const;
const kindFields: Readonly<Record<(typeof providerTypes)[number], readonly string[]>> = {
  openai: [],
  'openai-compatible': [],
  anthropic: [],
  gemini: [],
  bedrock: ['region', 'access_key_id', 'secret_access_key', 'session_token'],
  vertex: ['project', 'location', 'credentials_file'],
  azure: ['api_version'],
  bfl: [],
  runway: [],
  fal: [],
  replicate: [],
  minimax: [],
};

function cloudFieldOwners(field: string): string {
  return Object.entries(kindFields)
    .filter(([, fields]) => fields.includes(field))
    .map(([kind]) => kind)
    .join(' and ');
}

/** Azure's v1 API root ends in `/openai/v1`; any other root is the classic form. */
export function isAzureV1Url(baseUrl: string): boolean {
  return /\/openai\/v1\/*$/.test(baseUrl);
}

const failModes = ['open', 'closed'] as const;

/**
 * Rate limits, concurrency and budget reservations shared by every instance
 * (docs/api.md, "Limits and budgets").
 */
const redisSchema = z
  .object({
    url: z.string().min(1),
    /** With Redis unreachable: `open` admits calls without rate limits, `closed` refuses them with 503. */
    limits_fail_mode: z.enum(failModes).default('open'),
    /** With Redis unreachable: `closed` refuses calls of keys with a budget with 503, `open` lets them through unmetered. */
    budgets_fail_mode: z.enum(failModes).default('closed'),
    connect_timeout_ms: numeric(z.number().int().positive()).default(2_000),
    /** How long one admission or reservation may wait for Redis before its fail mode applies. */
    command_timeout_ms: numeric(z.number().int().positive()).default(500),
    /** Prepended to every Redis key, so several gateways (or tests) can share one Redis. */
    key_prefix: z.string().default('switchyard:'),
  })
  .strict();

/** A literal or a template string, or an object or array of them: JSON as the vendor's body holds it. */
export type InputValueConfig = string | number | boolean | null | InputValueConfig[] | { [field: string]: InputValueConfig };
const inputValueSchema: z.ZodType<InputValueConfig> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(inputValueSchema), z.record(z.string(), inputValueSchema)]),
);

const routeSchema = z
  .object({
    provider: z.string().min(1),
    model: z.string().min(1),
    /** Time allowed until the upstream's first byte. */
    timeout_ms: numeric(z.number().int().positive()).optional(),
    /**
     * A video upstream's request fields, each a template filled from the public request
     * (`{ duration: "{seconds:string}", image_url: "{input_reference}" }`), for the kinds whose
     * models each name their fields their own way (providers/video-input-map.ts).
     */
    input: z.record(z.string().min(1), inputValueSchema).optional(),
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

/** An absolute http(s) URL without query or fragment; kept without a trailing slash so paths append cleanly. */
const publicUrlSchema = z
  .string()
  .refine((value) => {
    const parsed = URL.canParse(value) ? new URL(value) : undefined;
    return parsed !== undefined && ['http:', 'https:'].includes(parsed.protocol) && parsed.search === '' && parsed.hash === '' && parsed.username === '';
  }, 'expected an absolute http:// or https:// URL without query, fragment or credentials')
  .transform((value) => value.replace(/\/+$/, ''));

/**
 * An S3-compatible bucket for content, shared by every instance behind a load balancer. Without
 * keys, the AWS SDK's own chain finds credentials (environment, profile, instance role).
 */
const s3ContentSchema = z
  .object({
    bucket: z.string().min(1),
    /** Another S3-compatible service (MinIO, R2, Ceph); AWS itself when absent. */
    endpoint: z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' }).optional(),
    region: z.string().min(1).default('us-east-1'),
    access_key_id: z.string().min(1).optional(),
    secret_access_key: z.string().min(1).optional(),
    /** `endpoint/bucket/key` addressing, which most self-hosted services need. */
    force_path_style: z.boolean().default(false),
    /** Keys go under `prefix/`, so one bucket can hold other things too. */
    prefix: z
      .string()
      .regex(/^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*\/?$/, 'expected path segments of letters, digits, `_`, `.` or `-`, such as `switchyard/content`')
      .refine((value) => !value.includes('..'), 'expected no `..` in the prefix')
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
    /** A bucket that accepts no connection within this is unavailable (503), not slow. */
    connect_timeout_ms: numeric(z.number().int().positive()).default(5_000),
    /** Time allowed until each answer's headers (a sent part included); a hung bucket fails after it. */
    request_timeout_ms: numeric(z.number().int().positive()).default(60_000),
  })
  .strict()
  .refine((s3) => (s3.access_key_id === undefined) === (s3.secret_access_key === undefined), {
    message: 'give access_key_id and secret_access_key together, or neither (the SDK then finds credentials itself)',
    path: ['access_key_id'],
  });

/** Where generated images and videos are kept, and how long the keyless URLs to them last. */
const contentSchema = z
  .object({
    /** The local directory; not used when `s3` is given. */
    dir: z.string().min(1).default('./data/content'),
    s3: s3ContentSchema.optional(),
    url_ttl_seconds: numeric(z.number().int().positive()).default(3600),
    /**
     * Signs content URLs. Without it the gateway generates one and keeps it in the database, so
     * every instance sharing the database signs alike; setting it lets an operator rotate it.
     */
    url_secret: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)').optional(),
    /** How long a finished video's content is kept: its `expires_at`. */
    video_ttl_seconds: numeric(z.number().int().positive()).default(86_400),
    /** Keep the store under this many bytes (expired content goes first, then what expires soonest). */
    max_bytes: numeric(z.number().int().positive()).optional(),
    sweep_interval_seconds: numeric(z.number().int().positive()).default(60),
  })
  .strict()
  .default({ dir: './data/content', url_ttl_seconds: 3600, video_ttl_seconds: 86_400, sweep_interval_seconds: 60 });

/** Twice a long 1080p clip at a generous bitrate: no vendor's video comes near it. */
const defaultDownloadMaxBytes = 512 * 1024 * 1024;

/** How this process works video jobs (every instance runs a worker over the shared job table). */
const videosSchema = z
  .object({
    /** Jobs one process works at a time. */
    concurrency: numeric(z.number().int().min(1).max(256)).default(8),
    /** How long a claimed job stays with its worker without renewal; a dead worker's jobs wait this long. */
    lease_seconds: numeric(z.number().int().min(2)).default(30),
    /** How often the worker looks for due jobs. */
    claim_interval_ms: numeric(z.number().int().min(10)).default(1000),
    /** The first wait between polls of an upstream job; it grows by half each poll up to the maximum. */
    poll_interval_ms: numeric(z.number().int().min(10)).default(2000),
    max_poll_interval_ms: numeric(z.number().int().min(10)).default(30_000),
    /** A job not finished this long after its submit fails, free of charge. */
    deadline_seconds: numeric(z.number().int().positive()).default(3600),
    /** A typical render time, for estimating progress of upstreams that report none (Veo). */
    expected_render_seconds: numeric(z.number().int().positive()).default(90),
    /** The largest piece of content (a video, a thumbnail) kept from an upstream; a larger one fails its job, free. */
    download_max_bytes: numeric(z.number().int().positive()).default(defaultDownloadMaxBytes),
    /**
     * Whether content may be fetched from loopback, private or link-local addresses other than the
     * provider's own `base_url` (a download link or a redirect pointing into the gateway's network):
     * `auto` allows it only for a provider whose own address is such (the simulator, a server on
     * the operator's network), `refuse` never, `allow` always.
     */
    download_private_addresses: z.enum(['auto', 'allow', 'refuse']).default('auto'),
  })
  .strict()
  .default({
    concurrency: 8,
    lease_seconds: 30,
    claim_interval_ms: 1000,
    poll_interval_ms: 2000,
    max_poll_interval_ms: 30_000,
    deadline_seconds: 3600,
    expected_render_seconds: 90,
    download_max_bytes: defaultDownloadMaxBytes,
    download_private_addresses: 'auto',
  });

/** How image jobs (media vendors that answer an image request with a job) are followed while the client waits. */
const imagesSchema = z
  .object({
    /** The wait before each poll of an upstream image job. */
    job_poll_interval_ms: numeric(z.number().int().min(10)).default(500),
    /** An image job not ready this long after its submit fails with a 504, free of charge. */
    job_timeout_ms: numeric(z.number().int().min(100)).default(180_000),
    /** The largest image fetched from a job's result URL; a larger one fails the call, free. */
    download_max_bytes: numeric(z.number().int().positive()).default(64 * 1024 * 1024),
  })
  .strict()
  .default({ job_poll_interval_ms: 500, job_timeout_ms: 180_000, download_max_bytes: 64 * 1024 * 1024 });

/** The admin API's live view of new calls (`/admin/requests/stream`). */
const adminSchema = z
  .object({
    /** How often this process reads the ledger for new entries while any stream is open (one reader for all of them). */
    stream_poll_interval_ms: numeric(z.number().int().min(10)).default(1000),
    /**
     * How far back each read looks: an entry is timed from its call's start but written at its
     * end, so a call that lasted longer than this never shows in the stream (it is in the ledger).
     */
    stream_lookback_seconds: numeric(z.number().int().min(1).max(3600)).default(300),
  })
  .strict()
  .default({ stream_poll_interval_ms: 1000, stream_lookback_seconds: 300 });

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
        /** The gateway's address as clients reach it (behind a proxy); URLs it hands out start with it. */
        public_url: publicUrlSchema.optional(),
        ...clientLimitsShape,
        /** On SIGTERM/SIGINT, how long calls and streams in flight may run to their end before they are stopped. */
        shutdown_grace_seconds: numeric(z.number().min(0).max(3600)).default(30),
      })
      .strict()
      .default({ host: '127.0.0.1', port: 8787, body_limit_bytes: 32 * 1024 * 1024, discovery_requires_key: false, open_access: 'auto', watch_config: false, shutdown_grace_seconds: 30, ...clientLimitDefaults }),
    database: databaseSchema,
    redis: redisSchema.optional(),
    content: contentSchema,
    videos: videosSchema,
    images: imagesSchema,
    admin: adminSchema,
    metrics: z
      .object({
        /**
         * `GET /metrics` shows spend by model and key traffic, so it needs an admin key (Prometheus
         * sends one as `authorization: Bearer`); true serves it to anyone, like `/health`.
         */
        public: z.boolean().default(false),
        /**
         * The former switch, deprecated. `true` asked for what the default now does and is taken
         * (with a warning at start); `false`, which made the endpoint public, is refused by name
         * rather than read the other way.
         */
        require_admin_key: z.literal(true, { error: 'replaced by metrics.public: GET /metrics needs an admin key unless metrics.public is true' }).optional(),
      })
      .strict()
      .refine((metrics) => !(metrics.public && metrics.require_admin_key === true), {
        path: ['require_admin_key'],
        error: 'contradicts metrics.public: true; remove it (it is replaced by metrics.public)',
      })
      .default({ public: false }),
    routing: routingSchema,
    limits: z
      .object({
        /**
         * The length of a rate-limit window: a key's rpm and tpm count per window of this many
         * seconds, aligned to the wall clock, and the reset headers follow it. A minute unless a
         * test wants to watch a window roll over in seconds.
         */
        window_seconds: numeric(z.number().int().min(1).max(3600)).default(60),
      })
      .strict()
      .default({ window_seconds: 60 }),
    keys: z
      .object({
        /** How long a rotated key's previous secret keeps working when the rotation does not say. */
        rotation_grace_seconds: numeric(z.number().int().min(0)).default(86_400),
      })
      .strict()
      .default({ rotation_grace_seconds: 86_400 }),
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
export type ContentConfig = z.infer<typeof contentSchema>;
export type S3ContentConfig = z.infer<typeof s3ContentSchema>;
export type VideosConfig = z.infer<typeof videosSchema>;
export type ImagesConfig = z.infer<typeof imagesSchema>;
export type RedisConfig = NonNullable<GatewayConfig['redis']>;
export type FailMode = RedisConfig['limits_fail_mode'];
export type LimitsConfig = GatewayConfig['limits'];
export type CircuitBreakerConfig = GatewayConfig['routing']['circuit_breaker'];
