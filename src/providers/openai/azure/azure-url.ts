import type { UpstreamTarget } from '../../provider-adapter.js';

/**
 * Where an OpenAI operation (`chat/completions`, `responses`, `images/generations`, …) is on
 * Azure. The v1 API has OpenAI's own paths under its root, with the model in the body. The
 * classic form puts the deployment (the route's model) in the path and the API version in the
 * query, except Responses, which is one path for the resource with the deployment as `model`.
 */
export function azureUrl(target: UpstreamTarget, operation: string): string {
  const apiVersion = target.azure?.apiVersion;
  if (apiVersion === undefined) return `${target.baseUrl}/${operation}`;
  const query = `?api-version=${encodeURIComponent(apiVersion)}`;
  if (operation === 'responses' || operation.startsWith('responses/')) return `${target.baseUrl}/openai/${operation}${query}`;
  return `${target.baseUrl}/openai/deployments/${encodeURIComponent(target.model)}/${operation}${query}`;
}
