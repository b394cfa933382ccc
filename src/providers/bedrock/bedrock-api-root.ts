import { apiRoot } from '../api-root.js';
import type { ApiRoot } from '../provider-adapter.js';

/** Bedrock Runtime's public endpoint for a region; a VPC endpoint or a test server is configured as `base_url`. */
export function bedrockRuntimeUrl(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/**
 * Bedrock's root is per region, so it has no one default: the catalog asks the root in the
 * provider's `region`. A credential is not required in the config: the AWS SDK's default chain
 * finds one.
 */
export const bedrockApiRoot: ApiRoot = {
  ...apiRoot({ pathOnOrigin: '', credentialRequired: false }),
  defaultBaseUrlAt: bedrockRuntimeUrl,
};
