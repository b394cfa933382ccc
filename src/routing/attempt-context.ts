import type { CatalogRoute } from '../catalog/model-catalog.js';
import type { ClientFormat, EncodeContext } from '../formats/client-format.js';
import type { ForwardedHeaders, ProviderAdapter } from '../providers/provider-adapter.js';

/** Everything one attempt on one route needs. */
export interface AttemptContext {
  readonly format: ClientFormat;
  readonly adapter: ProviderAdapter;
  readonly route: CatalogRoute;
  readonly timeoutMs: number;
  /** Aborted when the client disconnects. */
  readonly clientSignal: AbortSignal;
  readonly forwarded: ForwardedHeaders;
  readonly encode: EncodeContext;
}

/** An abort controller for one upstream call that also fires when the client goes away. */
export function linkedAbortController(clientSignal: AbortSignal): AbortController {
  const controller = new AbortController();
  if (clientSignal.aborted) controller.abort();
  else clientSignal.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
}
