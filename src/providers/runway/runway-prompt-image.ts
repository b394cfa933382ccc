import { GatewayError } from '../../errors/gateway-error.js';
import type { VideoInputReference } from '../../ir/video-generation.js';

/**
 * Runway takes a data URI "under 5MB (1024 × 1024 × 5 bytes)", the whole URI counted
 * (https://docs.dev.runwayml.com/assets/inputs): base64 makes that about 3.9 MB of image.
 */
export const runwayDataUriLimit = 5 * 1024 * 1024;

/**
 * The first frame as Runway's `promptImage`: the client's bytes as a data URI (no upload step, no
 * link for Runway to fetch), or the client's link as it is, which Runway fetches itself and takes
 * only over HTTPS. What Runway would refuse is refused here, before the job is sent.
 */
export function runwayPromptImage(reference: VideoInputReference): string {
  if ('url' in reference) {
    if (!/^https:\/\//i.test(reference.url)) {
      throw new GatewayError('invalid_field', 'Runway fetches input_reference links itself and takes only https:// ones; send the image as a file or a data: URL instead.', { param: 'input_reference' });
    }
    return reference.url;
  }
  const uri = `data:${reference.mediaType};base64,${Buffer.from(reference.bytes).toString('base64')}`;
  if (uri.length >= runwayDataUriLimit) {
    throw new GatewayError(
      'invalid_field',
      `input_reference is ${reference.bytes.byteLength} bytes, ${uri.length} characters as the data URI Runway takes; Runway takes data URIs under ${runwayDataUriLimit} characters (images up to about 3.9 MB). Send a smaller image, or an https:// link to it.`,
      { param: 'input_reference' },
    );
  }
  return uri;
}
