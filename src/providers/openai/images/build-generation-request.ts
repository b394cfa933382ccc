import type { ImageGenerationRequest } from '../../../ir/index.js';
import { openAIUpstreamHeaders } from '../shared/upstream-headers.js';
import type { UpstreamMediaRequest, UpstreamTarget } from '../../provider-adapter.js';
import { imageOptionFields } from './image-option-fields.js';
import { responseFormatField } from './response-format-field.js';

/** `POST {baseUrl}/images/generations` with a JSON body. */
export function buildGenerationRequest(
  request: ImageGenerationRequest,
  target: UpstreamTarget,
  kind: 'openai' | 'openai-compatible',
): UpstreamMediaRequest {
  const body = {
    model: target.model,
    prompt: request.prompt,
    ...imageOptionFields(request),
    ...responseFormatField(kind, target),
  };
  return { url: `${target.baseUrl}/images/generations`, headers: openAIUpstreamHeaders(target), body: JSON.stringify(body) };
}
