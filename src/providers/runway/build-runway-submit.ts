import { GatewayError } from '../../errors/gateway-error.js';
import type { VideoGenerationRequest } from '../../ir/video-generation.js';
import type { UpstreamCall, UpstreamTarget } from '../provider-adapter.js';
import { runwayHeaders, runwayUrl } from './runway-headers.js';
import { runwayPromptImage } from './runway-prompt-image.js';

/** Runway's prompts are "up to 1000 characters (measured in UTF-16 code units)", which a JS string's length is. */
const maxPromptLength = 1000;

/**
 * Veo on Runway makes sound only when asked, and "audio inclusion affects pricing": the gateway
 * asks for it, so what Runway makes is what the model's price (Runway's with-audio rate) is for.
 */
function withAudio(model: string): boolean {
  return model.startsWith('veo');
}

/**
 * `WxH` → Runway's `ratio`, which names the output's pixel size (`1280:720`): the variant's size,
 * checked against what the model sells before it gets here.
 */
export function runwayRatio(size: string): string {
  return size.replace('x', ':');
}

/**
 * `POST /v1/text_to_video`, or `/v1/image_to_video` with the first frame as `promptImage`: the
 * prompt as `promptText`, the size as `ratio`, the length as a whole `duration` in seconds.
 */
export function buildRunwaySubmit(request: VideoGenerationRequest, target: UpstreamTarget): UpstreamCall {
  if (request.prompt.length > maxPromptLength) {
    throw new GatewayError('invalid_field', `The prompt is ${request.prompt.length} characters; Runway takes prompts of at most ${maxPromptLength}.`, { param: 'prompt' });
  }
  const imageToVideo = request.mode === 'image-to-video';
  if (imageToVideo && request.inputReference === undefined) {
    throw new GatewayError('missing_field', "Mode 'image-to-video' needs an input_reference image.", { param: 'input_reference' });
  }
  const body = {
    model: target.model,
    ...(imageToVideo && request.inputReference !== undefined ? { promptImage: runwayPromptImage(request.inputReference) } : {}),
    promptText: request.prompt,
    ratio: runwayRatio(request.size),
    duration: request.seconds,
    ...(withAudio(target.model) ? { audio: true } : {}),
  };
  const path = imageToVideo ? '/v1/image_to_video' : '/v1/text_to_video';
  return { method: 'POST', url: runwayUrl(target, path), headers: runwayHeaders(target), body: JSON.stringify(body) };
}
