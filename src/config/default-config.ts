import { cloudStarters, type FileExists, type StarterRoute } from './cloud-starters.js';
import type { GatewayConfig } from './config-schema.js';

/** Marks a provider served by the simulator started inside the gateway process. */
export const builtinSimulatorUrl = 'builtin:sim';

type RawConfig = Record<string, unknown>;

/** The simulator's image model: gpt-image's rules and tiers, and dall-e-3 as its legacy alias. */
const simImageModel = {
  id: 'sim-image',
  output_modality: 'image',
  owned_by: 'switchyard-sim',
  legacy_aliases: ['dall-e-3'],
  routes: [{ provider: 'sim-openai', model: 'sim-image' }],
  image: {
    sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
    qualities: ['low', 'medium', 'high', 'auto'],
    max_n: 4,
    response_formats: ['b64_json', 'url'],
    output_formats: ['png', 'jpeg', 'webp'],
    backgrounds: ['transparent', 'opaque', 'auto'],
    streaming: true,
    edits: true,
  },
  price: {
    effective_from: '2026-01-01',
    per_image: {
      'low/1024x1024': '0.01',
      'low/1536x1024': '0.015',
      'low/1024x1536': '0.015',
      'medium/1024x1024': '0.04',
      'medium/1536x1024': '0.06',
      'medium/1024x1536': '0.06',
      'high/1024x1024': '0.16',
      'high/1536x1024': '0.24',
      'high/1024x1536': '0.24',
    },
  },
};

/** The simulator's video model: 720p sold per second; its 1080p variant has no price, so it is not sold. */
const simVideoModel = {
  id: 'sim-video',
  output_modality: 'video',
  owned_by: 'switchyard-sim',
  routes: [{ provider: 'sim-openai', model: 'sim-video' }],
  video: {
    variants: [
      { mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4, 8, 12], usd_per_second: '0.10' },
      { mode: 'text-to-video', resolution: '720p', aspect_ratio: '9:16', seconds: [4, 8, 12], usd_per_second: '0.10' },
      { mode: 'image-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4, 8], usd_per_second: '0.12' },
      { mode: 'text-to-video', resolution: '1080p', aspect_ratio: '16:9', seconds: [8] },
    ],
    remix: true,
  },
  price: { effective_from: '2026-01-01' },
};

/**
 * The configuration used when no file is given: the built-in simulator behind one model per
 * upstream wire format (so every translation path works offline), plus every real provider whose
 * usual variables are set: a vendor's key (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY), or
 * a cloud's region or project with credentials its SDKs would find (see cloud-starters.ts). Each
 * cloud's models have ids of their own (`bedrock/claude-sonnet-4-5`); the well-known ids
 * (`claude-sonnet-4-5`, `gemini-2.5-flash`) route to the vendor's own API first, then to each cloud
 * that serves the model, as fallbacks.
 */
export function defaultConfig(environment: Readonly<Record<string, string | undefined>>, fileExists?: FileExists): RawConfig {
  const providers: Record<string, unknown> = {
    'sim-openai': { type: 'openai', base_url: builtinSimulatorUrl },
    'sim-anthropic': { type: 'anthropic', base_url: builtinSimulatorUrl },
    'sim-gemini': { type: 'gemini', base_url: builtinSimulatorUrl },
  };
  const simPrice = { input_per_mtok: '1.00', output_per_mtok: '2.00', effective_from: '2026-01-01' };
  const models: unknown[] = [
    { id: 'sim-gpt', aliases: ['sim'], owned_by: 'switchyard-sim', routes: [{ provider: 'sim-openai', model: 'sim-gpt' }], price: simPrice },
    { id: 'sim-claude', owned_by: 'switchyard-sim', routes: [{ provider: 'sim-anthropic', model: 'sim-claude' }], price: simPrice },
    { id: 'sim-gemini', owned_by: 'switchyard-sim', routes: [{ provider: 'sim-gemini', model: 'sim-gemini' }], price: simPrice },
    simImageModel,
    simVideoModel,
  ];
  const clouds = cloudStarters(environment, fileExists);
  const claudeRoutes: StarterRoute[] = [];
  const geminiRoutes: StarterRoute[] = [];
  if (environment.OPENAI_API_KEY) {
    providers.openai = { type: 'openai', api_key: environment.OPENAI_API_KEY };
    models.push({ id: 'gpt-4.1-mini', owned_by: 'openai', routes: [{ provider: 'openai', model: 'gpt-4.1-mini' }] });
  }
  if (environment.ANTHROPIC_API_KEY) {
    providers.anthropic = { type: 'anthropic', api_key: environment.ANTHROPIC_API_KEY };
    claudeRoutes.push({ provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' });
  }
  if (environment.GEMINI_API_KEY) {
    providers.gemini = { type: 'gemini', api_key: environment.GEMINI_API_KEY };
    geminiRoutes.push({ provider: 'gemini', model: 'gemini-2.5-flash' });
  }
  claudeRoutes.push(...clouds.claudeRoutes);
  geminiRoutes.push(...clouds.geminiRoutes);
  if (claudeRoutes.length > 0) models.push({ id: 'claude-sonnet-4-5', owned_by: 'anthropic', aliases: ['claude-sonnet-4-5-20250929'], routes: claudeRoutes });
  if (geminiRoutes.length > 0) models.push({ id: 'gemini-2.5-flash', owned_by: 'google', routes: geminiRoutes });
  Object.assign(providers, clouds.providers);
  models.push(...clouds.models);
  return { providers, models } satisfies RawConfig;
}

export type { GatewayConfig };
