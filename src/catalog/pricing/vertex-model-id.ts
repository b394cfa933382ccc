/** A publisher model's resource path, which some callers use as its id. */
const publisherPath = /^(?:projects\/[^/]+\/locations\/[^/]+\/)?publishers\/[^/]+\/models\//;

/**
 * The ids a Vertex AI model may be priced under, most specific first. Vertex names a partner's
 * model version with `@` (`claude-sonnet-4-5@20250929`), where its vendor's API writes a hyphen
 * (`claude-sonnet-4-5-20250929`); a price list may know either, or only the unversioned name.
 */
export function vertexModelIds(modelId: string): string[] {
  const id = modelId.trim().replace(publisherPath, '');
  const at = id.indexOf('@');
  if (at < 0) return [id];
  const name = id.slice(0, at);
  const version = id.slice(at + 1);
  return [...new Set([id, version === '' ? name : `${name}-${version}`, name])];
}
