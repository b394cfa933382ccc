import type { ImageGenerationRequest, ImageInput } from '../../../ir/index.js';
import { openAIUpstreamHeaders } from '../shared/upstream-headers.js';
import type { UpstreamMediaRequest, UpstreamTarget } from '../../provider-adapter.js';
import { imageOptionFields } from './image-option-fields.js';
import { encodeMultipartForm, type FormPart } from '../shared/multipart-form.js';
import { responseFormatField } from './response-format-field.js';

/**
 * `POST {baseUrl}/images/edits` as `multipart/form-data`. One picture goes as `image`, several
 * as repeated `image[]` parts, the field names the `openai` SDK writes for a file and for an
 * array of files.
 */
export function buildEditRequest(
  request: ImageGenerationRequest,
  target: UpstreamTarget,
  kind: 'openai' | 'openai-compatible',
): UpstreamMediaRequest {
  const images = request.inputImages ?? [];
  const imageField = images.length === 1 ? 'image' : 'image[]';
  const options = { ...imageOptionFields(request), ...responseFormatField(kind, target) };
  const parts: FormPart[] = [
    { name: 'model', value: target.model },
    { name: 'prompt', value: request.prompt },
    ...images.map((image) => filePart(imageField, image)),
    ...(request.mask === undefined ? [] : [filePart('mask', request.mask)]),
    ...Object.entries(options).map(([name, value]) => ({ name, value: String(value) })),
  ];
  const form = encodeMultipartForm(parts);
  return {
    url: `${target.baseUrl}/images/edits`,
    headers: { ...withoutContentType(openAIUpstreamHeaders(target)), 'content-type': form.contentType },
    body: form.body,
  };
}

function filePart(name: string, image: ImageInput): FormPart {
  return { name, file: { bytes: image.bytes, filename: image.filename, mediaType: image.mediaType } };
}

/** The form's own content type carries the boundary, so no other spelling of the header may stay beside it. */
function withoutContentType(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
}
