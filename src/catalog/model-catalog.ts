import type { GatewayConfig, ModelConfig, ProviderConfig } from '../config/config-schema.js';
import { builtinSimulatorUrl } from '../config/default-config.js';
import type { UpstreamTarget } from '../providers/provider-adapter.js';
import { adapterForKind } from '../providers/registry.js';
import { parsePrice, type Price } from '../catalog/price.js';

export type OutputModality = 'text' | 'image' | 'video';

export interface CatalogRoute {
  readonly target: UpstreamTarget;
  readonly timeoutMs: number | undefined;
}

export interface CatalogModel {
  readonly id: string;
  readonly aliases: readonly string[];
  readonly outputModality: OutputModality;
  readonly ownedBy: string;
  /** Unix seconds, for the OpenAI list shape: when the operator's price took effect, or 0. */
  readonly created: number;
  readonly routes: readonly CatalogRoute[];
  /** True when at least one route has what it needs to be called (credentials or a local server). */
  readonly callable: boolean;
  readonly price: Price | undefined;
}

/** Public model ids and aliases → models with their ordered, resolved routes. */
export class ModelCatalog {
  private readonly byName = new Map<string, CatalogModel>();
  readonly models: readonly CatalogModel[];

  constructor(config: GatewayConfig, simulatorUrl: string | undefined) {
    this.models = config.models.map((model) => buildModel(model, config, simulatorUrl));
    for (const model of this.models) {
      this.byName.set(model.id, model);
      for (const alias of model.aliases) this.byName.set(alias, model);
    }
  }

  /** The model a public id or alias names, if it is configured. */
  find(name: string): CatalogModel | undefined {
    return this.byName.get(name);
  }
}

function buildModel(model: ModelConfig, config: GatewayConfig, simulatorUrl: string | undefined): CatalogModel {
  const routes = model.routes.flatMap((route): CatalogRoute[] => {
    const provider = config.providers[route.provider] as ProviderConfig;
    const baseUrl = resolveBaseUrl(provider, simulatorUrl);
    if (baseUrl === undefined) return [];
    const target: UpstreamTarget = {
      providerName: route.provider,
      kind: provider.type,
      baseUrl,
      model: route.model,
      ...(provider.api_key ? { apiKey: provider.api_key } : {}),
      ...(provider.headers ? { headers: provider.headers } : {}),
      ...(provider.responses ? { servesResponses: true } : {}),
    };
    return [{ target, timeoutMs: route.timeout_ms ?? provider.timeout_ms }];
  });
  const price = model.price ? parsePrice(model.price) : undefined;
  return {
    id: model.id,
    aliases: model.aliases,
    outputModality: model.output_modality,
    ownedBy: model.owned_by ?? model.routes[0]?.provider ?? 'switchyard',
    created: price ? Math.floor(price.effectiveFrom.getTime() / 1000) : 0,
    routes,
    callable: routes.some((route) => isCallable(route.target, config.providers[route.target.providerName] as ProviderConfig)),
    price,
  };
}

/** A hosted vendor needs a key; a self-hosted or simulated upstream does not. */
function isCallable(target: UpstreamTarget, provider: ProviderConfig): boolean {
  if (target.apiKey) return true;
  return !adapterForKind(provider.type).apiRoot.credentialRequired || provider.base_url !== undefined;
}

/** The API root of a provider as its kind's SDK takes it; undefined when it cannot be reached. */
export function resolveBaseUrl(provider: ProviderConfig, simulatorUrl: string | undefined): string | undefined {
  const { apiRoot } = adapterForKind(provider.type);
  if (provider.base_url === builtinSimulatorUrl) return simulatorUrl === undefined ? undefined : `${simulatorUrl}${apiRoot.pathOnOrigin}`;
  const configured = provider.base_url ?? apiRoot.defaultBaseUrl;
  return configured === undefined ? undefined : apiRoot.normalise(configured);
}
