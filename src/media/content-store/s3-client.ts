import { S3Client } from '@aws-sdk/client-s3';
import type { S3ContentConfig } from '../../config/config-schema.js';

export interface S3ClientTimeouts {
  /** A bucket that does not accept a connection in this time counts as unavailable, not as slow. */
  readonly connectionMs: number;
  /** Until the answer's headers, a sent body included (one 5 MiB part of a streamed upload). */
  readonly answerMs: number;
}

const defaultTimeouts: S3ClientTimeouts = { connectionMs: 5_000, answerMs: 60_000 };

/**
 * The S3 client for the configured bucket. Keys given in the config are used as they are;
 * without them the SDK's default chain (environment, shared profile, instance or task role)
 * finds credentials, as every AWS tool does.
 */
export function s3ClientFor(config: Omit<S3ContentConfig, 'connect_timeout_ms' | 'request_timeout_ms'>, timeouts: S3ClientTimeouts = defaultTimeouts): S3Client {
  return new S3Client({
    region: config.region,
    forcePathStyle: config.force_path_style,
    // Without throwOnRequestTimeout the SDK only warns, and a bucket that accepts a connection but
    // never answers would hold an image call or a video download for ever.
    requestHandler: { connectionTimeout: timeouts.connectionMs, requestTimeout: timeouts.answerMs, throwOnRequestTimeout: true },
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
    ...(config.access_key_id === undefined || config.secret_access_key === undefined
      ? {}
      : { credentials: { accessKeyId: config.access_key_id, secretAccessKey: config.secret_access_key } }),
  });
}
