import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { expiresAtOf } from './s3-content-metadata.js';
import { contentStoreError, isMissingObject } from './s3-content-store-error.js';

/** Lookups remembered at most; past it the memory starts over (one HEAD each again). */
const rememberedAtMost = 100_000;

/** What a listed object turned out to be when its metadata was asked for. */
export type ListedExpiry = { readonly present: true; readonly expiresAt?: Date } | { readonly present: false };

/**
 * An object's expiry, which a listing does not carry: one HEAD per object, remembered by ETag and
 * last-modified time together (a PUT of the same bytes keeps the ETag but not the time), so each
 * sweep after the first asks only about content written since.
 */
export class S3ExpiryLookup {
  private readonly known = new Map<string, { readonly version: string; readonly expiresAt?: Date }>();

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async expiryOf(objectKey: string, etag: string | undefined, lastModified: Date | undefined): Promise<ListedExpiry> {
    const version = etag === undefined || lastModified === undefined ? undefined : `${etag} ${lastModified.getTime()}`;
    const remembered = this.known.get(objectKey);
    if (remembered !== undefined && version !== undefined && remembered.version === version) return { present: true, ...(remembered.expiresAt === undefined ? {} : { expiresAt: remembered.expiresAt }) };
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      const expiresAt = expiresAtOf(head.Metadata);
      if (this.known.size >= rememberedAtMost) this.known.clear();
      if (version !== undefined) this.known.set(objectKey, { version, ...(expiresAt === undefined ? {} : { expiresAt }) });
      return { present: true, ...(expiresAt === undefined ? {} : { expiresAt }) };
    } catch (error) {
      // Removed between the listing and now (another instance's sweeper): nothing to report.
      if (isMissingObject(error)) return { present: false };
      throw contentStoreError(error, 'read content metadata');
    }
  }

  forget(objectKey: string): void {
    this.known.delete(objectKey);
  }
}
