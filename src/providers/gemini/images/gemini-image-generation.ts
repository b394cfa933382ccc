import type { ImageGenerationRequest, ImageGenerationResult } from '../../../ir/index.js';
import { isRecord } from '../../../json/json-value.js';
import type { ImageGeneration } from '../../provider-adapter.js';
import { buildImageContentRequest } from './build-image-content-request.js';
import { buildImagenRequest } from './build-imagen-request.js';
import { decodeImageContentResponse } from './decode-image-content-response.js';
import { decodeImagenResponse } from './decode-imagen-response.js';
import { isImagenModel } from './imagen-model.js';

/**
 * Google's two image APIs behind one capability, chosen by the upstream model id: Imagen
 * (`:predict`, generation only) and Gemini's image-output models (`:generateContent`, which edit
 * too — hence `edits`; a route to Imagen is refused edits by its model record and, failing
 * that, by the request builder).
 */
export const geminiImageGeneration: ImageGeneration = {
  edits: true,
  buildRequest: (request, target) =>
    isImagenModel(target.model) ? buildImagenRequest(request, target) : buildImageContentRequest(request, target),
  decodeResponse: (body, request) => decodeImageByShape(body, request),
};

/**
 * The decoder is given no target, so the answer's shape says which API produced it: a
 * `generateContent` answer always carries candidates, prompt feedback or usage; Imagen answers
 * with `predictions`, or with `{}` when its filter removed every image.
 */
function decodeImageByShape(body: unknown, request: ImageGenerationRequest): ImageGenerationResult {
  const isContentAnswer = isRecord(body) && ('candidates' in body || 'promptFeedback' in body || 'usageMetadata' in body);
  return isContentAnswer ? decodeImageContentResponse(body, request) : decodeImagenResponse(body, request);
}
