import type { GatewayConfig, ModelConfig, ProviderConfig } from '../config/config-schema.js';
import { ConfigError } from '../config/load-config.js';
import { builtinSimulatorUrl } from '../config/default-config.js';
import type { UpstreamTarget } from '../providers/provider-adapter.js';
import { adapterForKind } from '../providers/registry.js';
import type { CatalogModel, CatalogOptions, CatalogRoute } from './model-catalog.js';
import { assertInputMapsTaken, assertRoutesExpressVariants, knownUpstreamVideoModel } from './check-video-routes.js';
import { buildPriceSchedule } from './pricing/build-price-schedule.js';
import type { PriceSchedule } from './pricing/model-price.js';
import { priceEntryFromConfig } from './pricing/price-entry-from-config.js';
import { routeTokenDefaults, withRouteTokenPrices } from './pricing/route-token-prices.js';
import { priceAt, scheduleOf } from './pricing/price-schedule.js';
import { builtinImageRecords } from './records/builtin-image-records.js';
import { builtinVideoRecords } from './records/builtin-video-records.js';
import { resolveImageRecord } from './records/resolve-image-record.js';
import { resolveVideoRecord } from './records/resolve-video-record.js';
import type { VideoModelRecord } from './records/video-model-record.js';
import { ownEntry } from './records/own-entry.js';
import { sellableVariants } from './sellable-variants.js';
import { simulatorCredentials } from './simulator-credentials.js';

/** One configured model with its routes resolved, its built-in record merged and its prices built. */
export function catalogModelFromConfig(model: ModelConfig, where: string, config: GatewayConfig, options: CatalogOptions): CatalogModel {
  const routes = model.routes.flatMap((route): CatalogRoute[] => {
    const provider = providerNamed(config, route.provider);
    const baseUrl = resolveBaseUrl(provider, options.simulatorUrl);
    if (baseUrl === undefined) return [];
    const target: UpstreamTarget = {
      providerName: route.provider,
      kind: provider.type,
      baseUrl,
      model: route.model,
      ...(provider.api_key ? { apiKey: provider.api_key } : {}),
      ...(provider.headers ? { headers: provider.headers } : {}),
      ...(provider.responses ? { servesResponses: true } : {}),
      ...(route.input === undefined ? {} : { input: route.input }),
      ...cloudSettings(provider),
    };
    return [{ target, timeoutMs: route.timeout_ms ?? provider.timeout_ms, ...(provider.max_concurrency === undefined ? {} : { maxConcurrency: provider.max_concurrency }) }];
  });
  const upstreamModel = model.routes[0]?.model ?? model.id;
  const configuredPrices = model.price === undefined ? undefined : Array.isArray(model.price) ? model.price : [model.price];
  const reachable = routes.some((route) => isCallable(route.target, providerNamed(config, route.target.providerName)));
  const now = options.now ?? new Date();
  const base = { id: model.id, aliases: model.aliases, outputModality: model.output_modality, routes };
  assertInputMapsTaken(model, where, (name) => providerNamed(config, name).type);

  if (model.output_modality === 'image') {
    const builtin = ownEntry(builtinImageRecords, model.id) ?? ownEntry(builtinImageRecords, upstreamModel);
    const image = resolveImageRecord(where, builtin?.image, model.image, model.legacy_aliases);
    const defaults = builtin?.price === undefined ? undefined : scheduleOf([priceEntryFromConfig(builtin.price, 'image')], 'builtin');
    const prices = schedule(where, () => buildPriceSchedule(configuredPrices, defaults, 'image'));
    return { ...base, ownedBy: model.owned_by ?? builtin?.ownedBy ?? routeOwner(model), created: createdAt(prices, now), callable: reachable, prices, image };
  }
  if (model.legacy_aliases.length > 0) throw new ConfigError(`${where}.legacy_aliases: only image models have legacy aliases`);

  if (model.output_modality === 'video') {
    const builtin = ownEntry(builtinVideoRecords, model.id) ?? ownEntry(builtinVideoRecords, upstreamModel) ?? knownUpstreamVideoModel(routes);
    const resolved = resolveVideoRecord(builtin, model.video);
    if (resolved === undefined) throw new ConfigError(`${where}.video.variants: a video model the gateway does not know by id needs its variants`);
    assertRoutesExpressVariants(model, where, routes, resolved.record);
    const prices = schedule(where, () => buildPriceSchedule(configuredPrices, resolved.variantPrices, 'video'));
    const video: VideoModelRecord = resolved.record;
    const callable = reachable && sellableVariants(video, priceAt(prices, now)).length > 0;
    return { ...base, ownedBy: model.owned_by ?? builtin?.ownedBy ?? routeOwner(model), created: createdAt(prices, now), callable, prices, video };
  }

  // The model's price is its first route's: the one published, and charged unless a later route
  // that serves a call has a price of its own.
  const firstRoute = routes[0];
  const defaults = firstRoute === undefined ? undefined : routeTokenDefaults(firstRoute, model.id, options.tokenPriceDefaults);
  const prices = schedule(where, () => buildPriceSchedule(configuredPrices, defaults, 'text'));
  const pricedRoutes = schedule(where, () => withRouteTokenPrices(routes, model.id, configuredPrices, defaults, options.tokenPriceDefaults));
  return { ...base, routes: pricedRoutes, ownedBy: model.owned_by ?? routeOwner(model), created: createdAt(prices, now), callable: reachable, prices };
}

/** The settings of a cloud kind, carried on its targets for its adapter. */
function cloudSettings(provider: ProviderConfig): Pick<UpstreamTarget, 'bedrock' | 'vertex' | 'azure'> {
  const simulated = provider.base_url === builtinSimulatorUrl;
  if (provider.type === 'bedrock' && provider.region !== undefined) {
    // On the simulator, a provider that names no credential signs with the simulator's fixed key pair.
    const keys = simulated && provider.access_key_id === undefined && provider.api_key === undefined ? simulatorCredentials.bedrock : undefined;
    return {
      bedrock: {
        region: provider.region,
        ...keys,
        ...(provider.access_key_id === undefined ? {} : { accessKeyId: provider.access_key_id }),
        ...(provider.secret_access_key === undefined ? {} : { secretAccessKey: provider.secret_access_key }),
        ...(provider.session_token === undefined ? {} : { sessionToken: provider.session_token }),
      },
    };
  }
  if (provider.type === 'vertex' && provider.project !== undefined && provider.location !== undefined) {
    const credential = simulated
      ? { accessToken: simulatorCredentials.vertexAccessToken }
      : provider.credentials_file === undefined ? {} : { credentialsFile: provider.credentials_file };
    return { vertex: { project: provider.project, location: provider.location, ...credential } };
  }
  if (provider.type === 'azure') return { azure: provider.api_version === undefined ? {} : { apiVersion: provider.api_version } };
  return {};
}

/** A route's provider; load-config has checked that the name is configured (an own entry, not `toString`). */
function providerNamed(config: GatewayConfig, name: string): ProviderConfig {
  if (!Object.hasOwn(config.providers, name)) throw new ConfigError(`unknown provider "${name}"`);
  return config.providers[name] as ProviderConfig;
}

/** Price errors (two prices on one day, a markup finer than a pico-USD) name the model's field. */
function schedule<Built>(where: string, build: () => Built): Built {
  try {
    return build();
  } catch (error) {
    if (error instanceof RangeError) throw new ConfigError(`${where}.price: ${error.message}`);
    throw error;
  }
}

function routeOwner(model: ModelConfig): string {
  return model.routes[0]?.provider ?? 'switchyard';
}

function createdAt(prices: PriceSchedule | undefined, now: Date): number {
  const current = priceAt(prices, now) ?? prices?.entries[0];
  return current === undefined ? 0 : Math.floor(Date.parse(`${current.effectiveFrom}T00:00:00Z`) / 1000);
}

/** A hosted vendor needs a key; a self-hosted or simulated upstream does not. */
function isCallable(target: UpstreamTarget, provider: ProviderConfig): boolean {
  if (target.apiKey) return true;
  return !adapterForKind(provider.type).apiRoot.credentialRequired || provider.base_url !== undefined;
}

/** The API root of a provider as its kind's SDK takes it; undefined when it cannot be reached. */
export function resolveBaseUrl(provider: ProviderConfig, simulatorUrl: string | undefined): string | undefined {
  const { apiRoot } = adapterForKind(provider.type);
  if (provider.base_url === builtinSimulatorUrl) {
    if (simulatorUrl === undefined) return undefined;
    // Azure's classic form is rooted at the resource's origin; its v1 API below it.
    return provider.type === 'azure' && provider.api_version !== undefined ? simulatorUrl : `${simulatorUrl}${apiRoot.pathOnOrigin}`;
  }
  // Bedrock's public endpoint is its region's, Vertex's its location's (each kind takes only its own).
  const place = provider.region ?? provider.location;
  const located = place === undefined ? undefined : apiRoot.defaultBaseUrlAt?.(place);
  const configured = provider.base_url ?? apiRoot.defaultBaseUrl ?? located;
  return configured === undefined ? undefined : apiRoot.normalise(configured);
}
