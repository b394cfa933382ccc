import type { OutputModality } from '../catalog/model-catalog.js';
import type { RunningGateway } from '../app/start-gateway.js';
import type { OpenAccessState } from '../http/authenticate.js';
import { describeDatabaseLocation } from '../storage/describe-database-location.js';
import { redactConnectionUrl } from '../storage/redact-connection-url.js';

/** What a person starting the gateway at a terminal wants to know first. */
export interface StartSummary {
  readonly url: string;
  readonly models: readonly { readonly id: string; readonly outputModality: OutputModality }[];
  /** Already fit to show: an absolute SQLite path, or a PostgreSQL URL without its password. */
  readonly database: string;
  /** The Redis URL shared limits go through, without its password; absent when limits are kept in process. */
  readonly redis?: string;
  readonly openAccess: OpenAccessState;
}

const modalities: readonly OutputModality[] = ['text', 'image', 'video'];

const openAccessWords: Readonly<Record<OpenAccessState, string>> = {
  always: 'on (server.open_access: always)',
  'until-first-key': 'on until the first API key is created',
  off: 'off, every call needs an API key',
};

/** The callable models, the database and the open-access state of a gateway that has just started. */
export async function summarizeStart(gateway: RunningGateway): Promise<StartSummary> {
  const { config, authenticator } = gateway.services;
  const { catalog } = gateway.services.catalog.current();
  return {
    url: gateway.url,
    models: catalog.models.filter((model) => model.callable).map((model) => ({ id: model.id, outputModality: model.outputModality })),
    database: describeDatabaseLocation(config.database.url),
    ...(config.redis === undefined ? {} : { redis: redactConnectionUrl(config.redis.url) }),
    openAccess: await authenticator.openAccessState(),
  };
}

/**
 * One line, e.g. `switchyard listening on http://127.0.0.1:8787 | text models: sim-gpt, sim-claude |
 * database: SQLite /srv/data/switchyard.db | open access: on until the first API key is created`.
 */
export function startLine(summary: StartSummary): string {
  const modelParts = modalities.flatMap((modality) => {
    const ids = summary.models.filter((model) => model.outputModality === modality).map((model) => model.id);
    return ids.length === 0 ? [] : [`${modality} models: ${ids.join(', ')}`];
  });
  return [
    `switchyard listening on ${summary.url}`,
    ...(modelParts.length === 0 ? ['no callable models'] : modelParts),
    `database: ${summary.database}`,
    ...(summary.redis === undefined ? [] : [`redis: ${summary.redis}`]),
    `open access: ${openAccessWords[summary.openAccess]}`,
  ].join(' | ');
}
