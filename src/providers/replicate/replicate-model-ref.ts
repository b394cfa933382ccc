import { GatewayError } from '../../errors/gateway-error.js';

/**
 * What a route's model names on Replicate: an official model (`owner/name`), run at
 * `/models/{owner}/{name}/predictions` on whatever version Replicate serves, or one version of a
 * model (`owner/name:version`, or the bare 64-hex version id), run at `/predictions` with `version`.
 */
export type ReplicateModelRef =
  | { readonly kind: 'official'; readonly owner: string; readonly name: string }
  | { readonly kind: 'version'; readonly version: string; readonly owner?: string; readonly name?: string };

const officialPattern = /^([a-z0-9][\w.-]*)\/([a-z0-9][\w.-]*)$/i;
const versionedPattern = /^([a-z0-9][\w.-]*)\/([a-z0-9][\w.-]*):([0-9a-f]{64})$/i;
const versionPattern = /^[0-9a-f]{64}$/i;

export function parseReplicateModel(model: string): ReplicateModelRef {
  const versioned = versionedPattern.exec(model);
  if (versioned !== null) return { kind: 'version', owner: versioned[1] as string, name: versioned[2] as string, version: (versioned[3] as string).toLowerCase() };
  const official = officialPattern.exec(model);
  if (official !== null) return { kind: 'official', owner: official[1] as string, name: official[2] as string };
  if (versionPattern.test(model)) return { kind: 'version', version: model.toLowerCase() };
  throw new GatewayError('invalid_request', `The Replicate model '${model}' is neither owner/name, owner/name:version nor a 64-hex version id.`);
}

/** The `owner/name` a reference names, when it names one: the key of the built-in input maps. */
export function replicateModelName(model: string): string | undefined {
  const versioned = versionedPattern.exec(model);
  if (versioned !== null) return `${versioned[1] as string}/${versioned[2] as string}`.toLowerCase();
  return officialPattern.test(model) ? model.toLowerCase() : undefined;
}
