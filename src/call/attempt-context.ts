import type { ClientScope } from './client-scope.js';
import type { CatalogRoute } from '../catalog/model-catalog.js';
import type { ClientFormat, EncodeContext } from '../formats/client-format.js';
import type { ForwardedHeaders, ProviderAdapter, TextGeneration } from '../providers/provider-adapter.js';

/** Everything one attempt on one route needs. */
export interface AttemptContext {
  readonly format: ClientFormat;
  readonly adapter: ProviderAdapter;
  /** The upstream's text capability (the adapter's, checked to be there). */
  readonly text: TextGeneration;
  readonly route: CatalogRoute;
  readonly timeoutMs: number;
  /** Longest silence inside an answer that started (a stalled stream). */
  readonly idleTimeoutMs: number;
  /** Largest upstream answer read. */
  readonly maxAnswerBytes: number;
  /** How long a stream the client left is still read for the upstream's usage. */
  readonly usageWaitMs: number;
  /** Aborted when the client disconnects. */
  readonly clientSignal: ClientScope;
  readonly forwarded: ForwardedHeaders;
  readonly encode: EncodeContext;
}
