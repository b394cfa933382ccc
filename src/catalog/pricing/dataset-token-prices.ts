import type { ModelInfo, Provider } from '@pydantic/genai-prices';
import { parseBedrockModelId } from './bedrock-model-id.js';
import { datasetPriceEntries } from './dataset-price-entries.js';
import { datasetProviderOf } from './dataset-providers.js';
import { findDatasetModel } from './find-dataset-model.js';
import type { CrossRegionPricing, DatasetOrigin, PriceEntry } from './model-price.js';
import { vertexModelIds } from './vertex-model-id.js';

/** A model's default token prices from the dataset, with the row they came from. */
export interface DatasetPrice {
  /** Effective-dated, oldest first. */
  readonly entries: PriceEntry[];
  /** The cloud's own row, or the vendor's (a vendor's own API, or a cloud selling at its vendor's price). */
  readonly source: 'cloud-dataset' | 'vendor-dataset';
  readonly origin: DatasetOrigin;
}

/** A model's default token prices for the kind of provider that serves it (a kind string: clouds included). */
export type DatasetTokenPrices = (providerKind: string, modelId: string) => DatasetPrice | undefined;

type FindProvider = (options: { readonly providerId: string }) => Provider | undefined;

interface Found {
  readonly provider: string;
  readonly model: ModelInfo;
  readonly lookedUp: string;
}

function findIn(provider: Provider, ids: readonly string[]): Found | undefined {
  for (const id of ids) {
    const model = findDatasetModel(provider.models, id);
    if (model !== undefined) return { provider: provider.id, model, lookedUp: id };
  }
  return undefined;
}

/** The first input rate of a row, to tell a profile's premium from its discount. */
function firstInputRate(model: ModelInfo): bigint | undefined {
  return datasetPriceEntries(model)?.[0]?.text?.input.base;
}

/**
 * A cross-region profile against the same model called in one region. When the dataset prices the
 * profile's id itself, its row (premium or discount included) is the price; when it does not, the
 * prefix is cut and the in-region price used, and any premium is unknown.
 */
function crossRegionPricing(prefix: string, profile: ModelInfo | undefined, inRegion: ModelInfo | undefined): CrossRegionPricing {
  if (profile === undefined || inRegion === undefined) return { prefix, profilePriced: profile !== undefined, againstInRegion: 'unknown' };
  if (profile === inRegion) return { prefix, profilePriced: true, againstInRegion: 'same' };
  const profileRate = firstInputRate(profile);
  const inRegionRate = firstInputRate(inRegion);
  if (profileRate === undefined || inRegionRate === undefined) return { prefix, profilePriced: true, againstInRegion: 'unknown' };
  const againstInRegion = profileRate > inRegionRate ? 'higher' : profileRate < inRegionRate ? 'lower' : 'same';
  return { prefix, profilePriced: true, againstInRegion };
}

function priced(found: Found, source: DatasetPrice['source'], crossRegion: CrossRegionPricing | undefined): DatasetPrice | undefined {
  const entries = datasetPriceEntries(found.model);
  if (entries === undefined) return undefined;
  const origin: DatasetOrigin = { provider: found.provider, model: found.model.id, lookedUp: found.lookedUp, ...(crossRegion === undefined ? {} : { crossRegion }) };
  return { entries, source, origin };
}

/**
 * Token prices looked up in the dataset through its `findProvider`. A vendor's own API is searched
 * in that vendor's rows alone. A cloud's model id is searched as the route names it, then in the
 * forms the cloud's ids take (a Bedrock profile without its cross-region prefix, a Vertex
 * `name@version` as `name-version` and `name`): first in the cloud's rows, then in the rows of the
 * vendors the dataset names as that cloud's fallbacks. A row found but without token prices
 * (an embedding, a model billing image output per token) leaves the model unpriced.
 */
export function datasetTokenPricesFrom(findProvider: FindProvider): DatasetTokenPrices {
  return (providerKind, modelId) => {
    const datasetProvider = datasetProviderOf(providerKind);
    if (datasetProvider === undefined) return undefined;
    const provider = findProvider({ providerId: datasetProvider.id });
    if (provider === undefined) return undefined;
    if (!datasetProvider.cloud) {
      const found = findIn(provider, [modelId]);
      return found === undefined ? undefined : priced(found, 'vendor-dataset', undefined);
    }
    let ids = [modelId.trim()];
    let crossRegion: CrossRegionPricing | undefined;
    if (providerKind === 'bedrock') {
      const parsed = parseBedrockModelId(modelId);
      ids = parsed.crossRegionPrefix === undefined ? [parsed.id] : [parsed.id, parsed.inRegionId];
      if (parsed.crossRegionPrefix !== undefined) {
        const profile = findIn(provider, [parsed.id]);
        const inRegion = findIn(provider, [parsed.inRegionId]);
        crossRegion = crossRegionPricing(parsed.crossRegionPrefix, profile?.model, inRegion?.model);
      }
    } else if (providerKind === 'vertex') {
      ids = vertexModelIds(modelId);
    }
    const own = findIn(provider, ids);
    if (own !== undefined) return priced(own, 'cloud-dataset', crossRegion);
    for (const vendorId of provider.fallback_model_providers ?? []) {
      const vendor = findProvider({ providerId: vendorId });
      const found = vendor === undefined ? undefined : findIn(vendor, ids);
      if (found !== undefined) return priced(found, 'vendor-dataset', undefined);
    }
    return undefined;
  };
}

let loading: Promise<DatasetTokenPrices> | undefined;

/**
 * Loads the pinned `@pydantic/genai-prices` dataset once, on first use. It is about 800 KB of
 * JavaScript (about 100 ms to load), so commands that price nothing never pay for it; the gateway
 * awaits it once at start. Its data is bundled and the package holds no network code (its
 * `updatePrices` only hands a loader the caller supplies a URL); nothing here calls `updatePrices`,
 * so prices never change while the gateway runs.
 */
export function loadDatasetTokenPrices(): Promise<DatasetTokenPrices> {
  loading ??= import('@pydantic/genai-prices').then((dataset) => datasetTokenPricesFrom(dataset.findProvider));
  return loading;
}
