import type { ProviderKind } from '../../providers/provider-adapter.js';

/** Where a kind's prices are in the pricing dataset. */
export interface DatasetProvider {
  /** The dataset's provider id. */
  readonly id: string;
  /**
   * True for a cloud: its own rows are searched first, then those of the vendors the dataset names
   * as the provider's fallbacks (the models the cloud sells at their vendor's price). A vendor's
   * own API is searched alone: a price must be what that vendor bills.
   */
  readonly cloud: boolean;
}

/**
 * Our provider kinds → the dataset's providers. An OpenAI-compatible server may serve any model
 * at any price, so a model's name there says nothing about what it costs: it has none. The dataset
 * has no provider of its own for Vertex AI: its `google` provider lists the Gemini API's and Vertex
 * AI's prices (both price pages are its sources) and Claude's rows on Vertex, and names Anthropic
 * as its fallback.
 */
const datasetProviders: Readonly<Record<ProviderKind, DatasetProvider | undefined>> = {
  openai: { id: 'openai', cloud: false },
  anthropic: { id: 'anthropic', cloud: false },
  gemini: { id: 'google', cloud: false },
  'openai-compatible': undefined,
  bedrock: { id: 'aws', cloud: true },
  vertex: { id: 'google', cloud: true },
  azure: { id: 'azure', cloud: true },
  // FLUX prices are the gateway's built-in image records (catalog/records/), not the dataset's.
  bfl: undefined,
  // Runway bills credits per model and second; the model's built-in or configured price applies.
  runway: undefined,
  // fal's video prices are the model's (its variants' usd_per_second), never the dataset's.
  fal: undefined,
  // Media on Replicate is priced per variant in the model's config; the dataset prices tokens.
  replicate: undefined,
  // The dataset prices tokens; MiniMax's video is priced per second by the model's variants.
  minimax: undefined,
};

/** The dataset provider of a provider kind (a string: any kind, known or not); undefined for a kind the dataset cannot price. */
export function datasetProviderOf(kind: string): DatasetProvider | undefined {
  return Object.hasOwn(datasetProviders, kind) ? datasetProviders[kind as ProviderKind] : undefined;
}
