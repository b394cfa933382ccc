import { GatewayError } from '../../errors/gateway-error.js';
import type { VideoContentVariant } from '../../ir/video-generation.js';

/**
 * The types a job's content may be kept and served as. Anything else an upstream sends (HTML
 * above all) is refused: served from the gateway's origin it could run script there.
 */
const acceptedTypes: Readonly<Record<VideoContentVariant, readonly string[]>> = {
  video: ['video/mp4', 'video/webm', 'video/quicktime'],
  thumbnail: ['image/webp', 'image/jpeg', 'image/png'],
  spritesheet: ['image/webp', 'image/jpeg', 'image/png'],
};

/** Storage that does not name its type (some buckets answer octet-stream): kept as the variant's usual type. */
const unnamedTypes = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const usualTypes: Readonly<Record<VideoContentVariant, string>> = { video: 'video/mp4', thumbnail: 'image/webp', spritesheet: 'image/jpeg' };

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

/** The type to keep a downloaded variant under, from the upstream's Content-Type; throws for one not accepted. */
export function keptContentType(variant: VideoContentVariant, header: string | undefined): string {
  const type = mediaType(header);
  if (acceptedTypes[variant].includes(type)) return type;
  if (unnamedTypes.has(type)) return usualTypes[variant];
  throw new GatewayError('upstream_content_refused', `The upstream sent the ${variant} as '${type}', not one of ${acceptedTypes[variant].join(', ')}.`);
}

/** The type content is served as: a stored type outside the accepted ones (kept before they were checked) goes out as bytes. */
export function servedContentType(variant: VideoContentVariant, stored: string): string {
  const type = mediaType(stored);
  return acceptedTypes[variant].includes(type) ? type : 'application/octet-stream';
}
