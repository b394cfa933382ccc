/** Keeps an image in the content store and hands back a keyless, expiring gateway URL for it. */
export interface ImageUrlPublisher {
  publish(bytes: Uint8Array, mediaType: string, baseUrl: string): Promise<{ readonly url: string; readonly expiresAt: Date }>;
}
