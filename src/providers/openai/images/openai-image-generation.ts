import type { ImageGeneration } from '../../provider-adapter.js';
import { buildEditRequest } from './build-edit-request.js';
import { buildGenerationRequest } from './build-generation-request.js';
import { decodeImagesResponse } from './decode-images-response.js';
import { createImagesStreamDecoder } from './images-stream-decoder.js';

/** The OpenAI Images API (`/images/generations`, `/images/edits`), at OpenAI or a compatible server. */
export function createOpenAIImageGeneration(kind: 'openai' | 'openai-compatible'): ImageGeneration {
  return {
    edits: true,
    buildRequest: (request, target) =>
      request.inputImages !== undefined && request.inputImages.length > 0
        ? buildEditRequest(request, target, kind)
        : buildGenerationRequest(request, target, kind),
    decodeResponse: (body) => decodeImagesResponse(body),
    createStreamDecoder: () => createImagesStreamDecoder(),
  };
}
