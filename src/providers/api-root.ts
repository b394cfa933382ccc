import type { ApiRoot } from './provider-adapter.js';

interface ApiRootFacts {
  readonly defaultBaseUrl?: string;
  readonly pathOnOrigin: string;
  /** A version segment operators often paste that the vendor's SDK adds itself. */
  readonly redundantSuffix?: RegExp;
  readonly credentialRequired: boolean;
}

/** An ApiRoot from a kind's facts: the normalisation is the same for every vendor. */
export function apiRoot(facts: ApiRootFacts): ApiRoot {
  const { redundantSuffix } = facts;
  return {
    ...(facts.defaultBaseUrl === undefined ? {} : { defaultBaseUrl: facts.defaultBaseUrl }),
    pathOnOrigin: facts.pathOnOrigin,
    credentialRequired: facts.credentialRequired,
    normalise(configured) {
      const trimmed = configured.replace(/\/+$/, '');
      return redundantSuffix === undefined ? trimmed : trimmed.replace(redundantSuffix, '');
    },
  };
}
