import { randomBytes } from 'node:crypto';
import type { ContentReader, ContentStore } from '../content-store/content-store.js';
import type { ContentUrlSigner } from '../content-store/content-url-signer.js';

/** Where the gateway serves published images; the endpoint is registered under the same path. */
export const imageContentPath = '/v1/images/content';

const extensionByMediaType: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** The ids `publish` makes: 144 random bits, then the extension. Anything else was never published. */
const imageIdPattern = /^img_[A-Za-z0-9_-]{24}\.[a-z]+$/;

export interface PublishedImage {
  /** Absolute, keyless, and good until `expiresAt`. */
  readonly url: string;
  readonly expiresAt: Date;
}

/** What a content URL leads to. A refusal never says whether the content exists. */
export type OpenedImage =
  | { readonly outcome: 'found'; readonly content: ContentReader; readonly expiresAt: Date }
  | { readonly outcome: 'refused'; readonly reason: 'forged' | 'expired' }
  | { readonly outcome: 'missing' };

/**
 * Serves generated images by URL (`response_format: url`): keeps the bytes in the content store
 * under a fresh unguessable id and hands out a signed, expiring URL that needs no API key, as a
 * vendor's signed URL would. Each publish gets a new id, so stored content never changes.
 */
export class ImageContentPublisher {
  constructor(
    private readonly store: ContentStore,
    private readonly signer: ContentUrlSigner,
    private readonly ttlSeconds: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Stores the image and returns its URL under `baseUrl` (the gateway as the client reaches it). */
  async publish(bytes: Uint8Array, mediaType: string, baseUrl: string): Promise<PublishedImage> {
    const extension = extensionByMediaType[mediaType.split(';')[0]?.trim().toLowerCase() ?? ''];
    if (extension === undefined) throw new RangeError(`"${mediaType}" is not an image type the gateway serves`);
    const id = `img_${randomBytes(18).toString('base64url')}.${extension}`;
    // Whole seconds, rounded up, so the URL lasts at least the configured time.
    const expires = Math.ceil(this.now().getTime() / 1000) + this.ttlSeconds;
    // Kept as long as its URLs work; the sweeper removes it after.
    await this.store.put(contentKey(id), bytes, `image/${extension}`, { expiresAt: new Date(expires * 1000) });
    const query = new URLSearchParams({ expires: String(expires), signature: this.signer.sign(id, expires) });
    return { url: `${baseUrl.replace(/\/+$/, '')}${imageContentPath}/${id}?${query.toString()}`, expiresAt: new Date(expires * 1000) };
  }

  /**
   * The image a URL's parts lead to. The signature is checked before the store is asked, so a
   * forged URL learns nothing about what is stored.
   */
  async open(id: string, expires: string | undefined, signature: string | undefined): Promise<OpenedImage> {
    if (!imageIdPattern.test(id)) return { outcome: 'refused', reason: 'forged' };
    const verdict = this.signer.verify(id, expires, signature, this.now());
    if (verdict !== 'valid') return { outcome: 'refused', reason: verdict };
    const content = await this.store.get(contentKey(id));
    if (content === undefined) return { outcome: 'missing' };
    return { outcome: 'found', content, expiresAt: new Date(Number(expires) * 1000) };
  }

  /** Seconds a URL expiring at `expiresAt` has left, for caches. */
  secondsLeft(expiresAt: Date): number {
    return Math.max(0, Math.floor((expiresAt.getTime() - this.now().getTime()) / 1000));
  }
}

function contentKey(id: string): string {
  return `images/${id}`;
}
