import path from 'node:path';
import type { ContentConfig } from '../../config/config-schema.js';
import type { ContentStore } from './content-store.js';
import { LocalDirectoryContentStore } from './local-directory-content-store.js';

/**
 * The configured content store: the bucket when `s3` is given, otherwise the local directory
 * (resolved against the working directory now, as the SQLite file is, so a later chdir changes
 * nothing). The AWS SDK is loaded only when a bucket is configured, keeping a one-process start
 * quick.
 */
export async function openContentStore(config: ContentConfig): Promise<ContentStore> {
  if (config.s3 === undefined) return LocalDirectoryContentStore.open(path.resolve(config.dir));
  const [{ S3ContentStore }, { s3ClientFor }] = await Promise.all([import('./s3-content-store.js'), import('./s3-client.js')]);
  return new S3ContentStore(s3ClientFor(config.s3, { connectionMs: config.s3.connect_timeout_ms, answerMs: config.s3.request_timeout_ms }), { bucket: config.s3.bucket, ...(config.s3.prefix === undefined ? {} : { prefix: config.s3.prefix }) });
}
