import type { Provider } from '@pydantic/genai-prices';
import type { ProviderKind } from '../../providers/provider-adapter.js';
import { datasetPriceEntries } from './dataset-price-entries.js';
import { findDatasetModel } from './find-dataset-model.js';
import type { PriceEntry } from './model-price.js';

/** A model's default token prices, effective-dated, for the kind of provider that serves it. */
export type DatasetTokenPrices = (providerKind: ProviderKind, modelId: string) => PriceEntry[] | undefined;

/**
 * Our provider kinds → the dataset's provider ids. An OpenAI-compatible server may serve any
 * model at any price, so a model's name there says nothing about what it costs: it has none.
 */
const datasetProviderIds: Readonly<Record<ProviderKind, string | undefined>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'google',
  'openai-compatible': undefined,
  // The cloud platforms bill their own prices, under ids of their own: until mapped, from the config.
  bedrock: undefined,
  vertex: undefined,
  azure: undefined,
};

type FindProvider = (options: { readonly providerId: string }) => Provider | undefined;

/**
 * Token prices looked up in the dataset through its `findProvider`. Only the models listed under
 * the provider are searched, not its fallback providers: a price must be what that vendor bills.
 */
export function datasetTokenPricesFrom(findProvider: FindProvider): DatasetTokenPrices {
  return (providerKind, modelId) => {
    const providerId = datasetProviderIds[providerKind];
    if (providerId === undefined) return undefined;
    const provider = findProvider({ providerId });
    if (provider === undefined) return undefined;
    const model = findDatasetModel(provider.models, modelId);
    return model === undefined ? undefined : datasetPriceEntries(model);
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
