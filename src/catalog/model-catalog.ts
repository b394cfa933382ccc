import type { GatewayConfig } from '../config/config-schema.js';
import type { DatasetPrice } from './pricing/dataset-token-prices.js';
import type { PriceSchedule } from './pricing/model-price.js';
import type { ProviderKind, UpstreamTarget } from '../providers/provider-adapter.js';
import { catalogModelFromConfig } from './catalog-model-from-config.js';
import type { ImageModelRecord, LegacyImageAlias } from './records/image-model-record.js';
import type { VideoModelRecord } from './records/video-model-record.js';

export type OutputModality = 'text' | 'image' | 'video';

export interface CatalogRoute {
  readonly target: UpstreamTarget;
  readonly timeoutMs: number | undefined;
  /** The provider's `max_concurrency`; undefined for an uncapped provider, whose calls never meet the caps. */
  readonly maxConcurrency?: number;
  /**
   * A later route's own token prices, when the pricing dataset prices it at another row than the
   * model's first route (the same model on a cloud): a call this route serves is charged them.
   */
  readonly prices?: PriceSchedule;
}

export interface CatalogModel {
  readonly id: string;
  readonly aliases: readonly string[];
  readonly outputModality: OutputModality;
  readonly ownedBy: string;
  /** Unix seconds, for the OpenAI list shape: when the price in force took effect, or 0. */
  readonly created: number;
  readonly routes: readonly CatalogRoute[];
  /** True when the model can be sold: a route with what it needs (credentials or a local server), and for video a priced variant. */
  readonly callable: boolean;
  /** Past, current and scheduled prices; undefined for a model without a price (published as unpriced, never as free). */
  readonly prices: PriceSchedule | undefined;
  readonly image?: ImageModelRecord;
  readonly video?: VideoModelRecord;
}

/** Default token prices for an upstream model (the pricing dataset), kept out of the catalog so tests can give their own. */
export type TokenPriceDefaults = (kind: ProviderKind, modelId: string) => DatasetPrice | undefined;

export interface CatalogOptions {
  /** Where the built-in simulator listens, when `builtin:sim` routes exist. */
  readonly simulatorUrl?: string;
  readonly tokenPriceDefaults?: TokenPriceDefaults;
  /** The time prices and sellability are judged at (now, unless a test says otherwise). */
  readonly now?: Date;
}

/** Public model ids, aliases and legacy aliases → models with their ordered, resolved routes, records and prices. */
export class ModelCatalog {
  private readonly byName = new Map<string, CatalogModel>();
  private readonly legacyByName = new Map<string, LegacyImageAlias>();
  readonly models: readonly CatalogModel[];

  constructor(config: GatewayConfig, options: CatalogOptions = {}) {
    this.models = config.models.map((model, index) => catalogModelFromConfig(model, `models[${index}]`, config, options));
    for (const model of this.models) {
      this.byName.set(model.id, model);
      for (const alias of model.aliases) this.byName.set(alias, model);
      for (const legacy of model.image?.legacyAliases ?? []) {
        this.byName.set(legacy.id, model);
        this.legacyByName.set(legacy.id, legacy);
      }
    }
  }

  /** The model a public id, alias or legacy alias names, if it is configured. */
  find(name: string): CatalogModel | undefined {
    return this.byName.get(name);
  }

  /** The legacy image model a name stands for, when it is one. */
  legacyImageAlias(name: string): LegacyImageAlias | undefined {
    return this.legacyByName.get(name);
  }
}
