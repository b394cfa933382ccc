import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type GetObjectCommandOutput, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { CountedSource } from './counted-source.js';
import type { ByteRange, ContentEntry, ContentReader, ContentSource, ContentStore, PutOptions, StoredContent } from './content-store.js';
import { metadataFor } from './s3-content-metadata.js';
import { contentStoreError, isMissingObject, isUnsatisfiableRange } from './s3-content-store-error.js';
import { S3ExpiryLookup } from './s3-expiry-lookup.js';
import { S3ObjectKeys } from './s3-object-keys.js';

export interface S3ContentStoreOptions {
  readonly bucket: string;
  /** Objects go under `prefix/`. */
  readonly prefix?: string;
  /** Objects asked for per listing request; S3's own maximum (1000) unless a test wants pages. */
  readonly pageSize?: number;
}

/**
 * Parts of 5 MiB a streamed upload sends at once. With the part being filled, a video copied from
 * the upstream into the bucket holds about three parts in memory, never the whole video.
 */
const partsInFlight = 2;

/** Objects whose metadata a listing asks for at once. */
const headsAtOnce = 16;

/** `bytes 2-5/10` as S3 answers a ranged GET. */
const contentRangePattern = /^bytes (\d+)-(\d+)\/(\d+)$/;

/**
 * Content in an S3-compatible bucket, so every gateway instance serves what any one stored. The
 * content type is the object's own; the expiry is user metadata. An object appears whole or not
 * at all (S3 PUTs and completed multipart uploads are atomic); a failed streamed upload is
 * aborted, so no parts linger and the old content stays.
 */
export class S3ContentStore implements ContentStore {
  private readonly keys: S3ObjectKeys;
  private readonly expiries: S3ExpiryLookup;

  constructor(
    private readonly client: S3Client,
    private readonly options: S3ContentStoreOptions,
  ) {
    this.keys = new S3ObjectKeys(options.prefix);
    this.expiries = new S3ExpiryLookup(client, options.bucket);
  }

  async put(key: string, content: ContentSource, contentType: string, options: PutOptions = {}): Promise<StoredContent> {
    const params = { Bucket: this.options.bucket, Key: this.keys.objectKeyFor(key), ContentType: contentType, Metadata: metadataFor(options) };
    this.expiries.forget(params.Key);
    if (content instanceof Uint8Array) {
      await this.client.send(new PutObjectCommand({ ...params, Body: content })).catch((error: unknown) => {
        throw contentStoreError(error, 'store content');
      });
      return { key, contentType, size: content.byteLength };
    }
    const source = new CountedSource(content);
    const upload = new Upload({ client: this.client, queueSize: partsInFlight, params: { ...params, Body: Readable.from(source.chunks()) } });
    try {
      await upload.done();
    } catch (error) {
      // The source's own failure (an upstream that went away) is reported as it is, not as the store's.
      throw source.failure ?? contentStoreError(error, 'store content');
    }
    return { key, contentType, size: source.bytes };
  }

  async get(key: string, range?: ByteRange): Promise<ContentReader | undefined> {
    const objectKey = this.keys.objectKeyFor(key);
    if (range !== undefined && !isWellFormed(range)) throw new RangeError(`bytes ${range.start}-${range.end ?? ''} is not a byte range`);
    let response: GetObjectCommandOutput;
    try {
      response = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: objectKey, ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end ?? ''}` }) }),
      );
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      if (isUnsatisfiableRange(error)) throw new RangeError(`bytes ${range?.start}-${range?.end ?? ''} lie outside the content stored`);
      throw contentStoreError(error, 'read content');
    }
    const body = response.Body;
    if (body === undefined || !(Symbol.asyncIterator in body)) throw contentStoreError(new Error('GetObject answered without a body'), 'read content');
    const contentType = response.ContentType ?? 'application/octet-stream';
    const served = contentRangePattern.exec(response.ContentRange ?? '');
    if (served !== null) {
      return { key, contentType, size: Number(served[3]), range: { start: Number(served[1]), end: Number(served[2]) }, body: body as AsyncIterable<Uint8Array> };
    }
    // A whole object: asked for without a range, or one the service chose to send whole.
    const size = response.ContentLength ?? 0;
    return { key, contentType, size, range: { start: 0, end: size - 1 }, body: body as AsyncIterable<Uint8Array> };
  }

  async delete(key: string): Promise<void> {
    const objectKey = this.keys.objectKeyFor(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: objectKey })).catch((error: unknown) => {
      if (!isMissingObject(error)) throw contentStoreError(error, 'remove content');
    });
    this.expiries.forget(objectKey);
  }

  /** Page by page, following continuation tokens; objects that are not ours are skipped. */
  async *list(): AsyncIterable<ContentEntry> {
    let continuationToken: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListObjectsV2Command({
            Bucket: this.options.bucket,
            ...(this.keys.listPrefix === '' ? {} : { Prefix: this.keys.listPrefix }),
            ...(this.options.pageSize === undefined ? {} : { MaxKeys: this.options.pageSize }),
            ...(continuationToken === undefined ? {} : { ContinuationToken: continuationToken }),
          }),
        )
        .catch((error: unknown) => {
          throw contentStoreError(error, 'list content');
        });
      const ours = (page.Contents ?? []).flatMap((object) => {
        const key = object.Key === undefined ? undefined : this.keys.contentKeyOf(object.Key);
        return key === undefined || object.Key === undefined ? [] : [{ key, objectKey: object.Key, object }];
      });
      // A few HEADs at a time: the first sweep of a large bucket asks about every object.
      for (let start = 0; start < ours.length; start += headsAtOnce) {
        const batch = ours.slice(start, start + headsAtOnce);
        const expiries = await Promise.all(batch.map(({ objectKey, object }) => this.expiries.expiryOf(objectKey, object.ETag, object.LastModified)));
        for (const [index, { key, object }] of batch.entries()) {
          const expiry = expiries[index];
          if (expiry === undefined || !expiry.present) continue;
          yield { key, size: object.Size ?? 0, storedAt: object.LastModified ?? new Date(0), ...(expiry.expiresAt === undefined ? {} : { expiresAt: expiry.expiresAt }) };
        }
      }
      continuationToken = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
  }
}

/** What S3 would read as a range: a non-negative start and an end not before it. */
function isWellFormed(range: ByteRange): boolean {
  return Number.isSafeInteger(range.start) && range.start >= 0 && (range.end === undefined || (Number.isSafeInteger(range.end) && range.end >= range.start));
}
