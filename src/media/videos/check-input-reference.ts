import { GatewayError } from '../../errors/gateway-error.js';
import type { VideoInputReference } from '../../ir/video-generation.js';

/** The image type the bytes themselves announce (clients often upload files as octet-stream). */
function sniffImageType(bytes: Uint8Array): string | undefined {
  const starts = (...signature: number[]): boolean => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * A first frame the upstream can take: a JPEG, PNG or WebP image within the model's size limit,
 * returned with the media type its bytes show (whatever type it was declared with). A URL is the upstream's to fetch.
 */
export function checkInputReference(modelId: string, reference: VideoInputReference | undefined, maxBytes: number): VideoInputReference | undefined {
  if (reference === undefined || !('bytes' in reference)) return reference;
  if (reference.bytes.byteLength > maxBytes) {
    throw new GatewayError(
      'invalid_field',
      `input_reference is ${reference.bytes.byteLength} bytes; the model '${modelId}' takes images of at most ${maxBytes} bytes.`,
      { param: 'input_reference' },
    );
  }
  // The bytes decide, not the declared type: a mislabelled upload would fail upstream after the job was taken.
  const mediaType = sniffImageType(reference.bytes);
  if (mediaType === undefined) {
    throw new GatewayError('invalid_field', `input_reference must be a JPEG, PNG or WebP image (got '${reference.mediaType}').`, { param: 'input_reference' });
  }
  return { ...reference, mediaType };
}
