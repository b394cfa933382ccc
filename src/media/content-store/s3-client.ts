import { S3Client } from '@aws-sdk/client-s3';
import type { S3ContentConfig } from '../../config/config-schema.js';

/** A bucket that does not accept a connection in this time counts as unavailable, not as slow. */
const connectionTimeoutMs = 5_000;

/**
 * The S3 client for the configured bucket. Keys given in the config are used as they are;
 * without them the SDK's default chain (environment, shared profile, instance or task role)
 * finds credentials, as every AWS tool does.
 */
export function s3ClientFor(config: S3ContentConfig): S3Client {
  return new S3Client({
    region: config.region,
    forcePathStyle: config.force_path_style,
    requestHandler: { connectionTimeout: connectionTimeoutMs },
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
    ...(config.access_key_id === undefined || config.secret_access_key === undefined
      ? {}
      : { credentials: { accessKeyId: config.access_key_id, secretAccessKey: config.secret_access_key } }),
  });
}
