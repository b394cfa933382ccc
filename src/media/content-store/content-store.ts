/**
 * Where generated media lives once the gateway has it: image files served by URL, video content
 * served for download. A port, so one process keeps a local directory and several instances
 * share a bucket; callers never see paths or buckets.
 */
export interface ContentStore {
  /** Stores content under `key`, replacing what was there; readers never see a partial write. */
  put(key: string, content: ContentSource, contentType: string, options?: PutOptions): Promise<StoredContent>;
  /** The content under `key`, whole or the byte range asked for; undefined when there is none. */
  get(key: string, range?: ByteRange): Promise<ContentReader | undefined>;
  /** Removes the content; removing what is not there is no error. */
  delete(key: string): Promise<void>;
  /** Everything stored, in no particular order: what the sweeper walks to expire and to trim. */
  list(): AsyncIterable<ContentEntry>;
}

export interface PutOptions {
  /** When the content may be removed; kept with it, so any instance's sweeper can tell. */
  readonly expiresAt?: Date;
}

/** One stored item as the sweeper sees it. */
export interface ContentEntry {
  readonly key: string;
  readonly size: number;
  readonly storedAt: Date;
  readonly expiresAt?: Date;
}

/** Bytes at once, or a stream of chunks (a video downloaded from an upstream) never held whole. */
export type ContentSource = Uint8Array | AsyncIterable<Uint8Array>;

export interface StoredContent {
  readonly key: string;
  readonly contentType: string;
  readonly size: number;
}

/** Inclusive byte offsets, as in an HTTP `Range: bytes=start-end` header. */
export interface ByteRange {
  readonly start: number;
  /** The last byte wanted; the end of the content when absent. */
  readonly end?: number;
}

export interface ContentReader extends StoredContent {
  /** The bytes served: the range asked for, clamped to the content. */
  readonly range: { readonly start: number; readonly end: number };
  readonly body: AsyncIterable<Uint8Array>;
}
