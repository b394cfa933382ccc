/**
 * What a cloud provider on `builtin:sim` is called with when its config names no credential. The
 * simulator checks only that a call carries a well-formed credential — it holds no AWS secret and
 * issues no Google token — so a fixed local one stands in, and a start never walks the AWS
 * credential chain or asks Google for a token (both would need the network, or fail offline).
 */
export const simulatorCredentials = {
  /** Bedrock's calls are still signed with SigV4 (with this key pair), so the signing path runs as it would against AWS. */
  bedrock: { accessKeyId: 'AKIASWITCHYARDSIM000', secretAccessKey: 'switchyard-simulator-secret-access-key' },
  /** Vertex's calls carry this as their OAuth2 bearer token instead of one from a key file or ADC. */
  vertexAccessToken: 'switchyard-simulator-token',
} as const;
