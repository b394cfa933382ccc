import { GatewayError } from '../../../errors/gateway-error.js';
import type { GeneratedImage, ImageGenerationRequest, ImageGenerationResult } from '../../../ir/index.js';
import { asArray, isRecord, readRecord, readString } from '../../../json/json-value.js';
import { hasTokenCounts, usageFromGemini } from '../wire/gemini-usage.js';
import { geminiUsageMetadataSchema } from '../wire/generate-content-response.js';
import { aspectRatioForSize, geminiImageSizes } from './aspect-ratio-sizes.js';
import { imageFilteredError } from './image-filtered-error.js';
import { outputFormatFromMimeType } from './image-output-format.js';

/** What the candidates of a `generateContent` answer hold. */
interface CandidateContent {
  readonly images: GeneratedImage[];
  readonly texts: string[];
  mimeType: string | undefined;
}

/**
 * A `generateContent` answer of an image-output model → the neutral result: its `inlineData`
 * image parts, usage from `usageMetadata`. No image means the prompt was blocked
 * (`promptFeedback.blockReason`) or the output withheld (`finishReason` IMAGE_SAFETY and kin),
 * reported as the client's 400 with that reason.
 */
export function decodeImageContentResponse(body: unknown, request: ImageGenerationRequest): ImageGenerationResult {
  if (!isRecord(body)) {
    throw new GatewayError('upstream_invalid_response', 'The Gemini upstream returned a response the gateway cannot read.');
  }
  const content = collectCandidateContent(body);
  if (content.images.length === 0) throw noImageError(body, content.texts);
  const size = reportedSize(request);
  const outputFormat = outputFormatFromMimeType(content.mimeType);
  const metadata = geminiUsageMetadataSchema.safeParse(body['usageMetadata']);
  const usage = metadata.success && hasTokenCounts(metadata.data) ? usageFromGemini(metadata.data) : undefined;
  return {
    images: content.images,
    ...(size === undefined ? {} : { size }),
    quality: 'standard',
    ...(outputFormat === undefined ? {} : { outputFormat }),
    ...(usage === undefined ? {} : { usage }),
  };
}

function collectCandidateContent(body: Record<string, unknown>): CandidateContent {
  const collected: CandidateContent = { images: [], texts: [], mimeType: undefined };
  for (const candidate of asArray(body['candidates']).filter(isRecord)) {
    for (const part of asArray(readRecord(candidate, 'content')?.['parts']).filter(isRecord)) {
      // Gemini 3 image models draw interim images while thinking (`thought: true`); only final ones count.
      if (part['thought'] === true) continue;
      const inline = readRecord(part, 'inlineData');
      const data = inline === undefined ? undefined : readString(inline, 'data');
      const mimeType = inline === undefined ? undefined : readString(inline, 'mimeType');
      if (data && (mimeType === undefined || mimeType.startsWith('image/'))) {
        collected.images.push({ base64: data });
        collected.mimeType ??= mimeType;
        continue;
      }
      const text = readString(part, 'text');
      if (text) collected.texts.push(text);
    }
  }
  return collected;
}

function noImageError(body: Record<string, unknown>, texts: readonly string[]): GatewayError {
  const feedback = readRecord(body, 'promptFeedback');
  const blockReason = feedback === undefined ? undefined : readString(feedback, 'blockReason');
  if (blockReason) {
    return imageFilteredError(blockReason, readString(feedback ?? {}, 'blockReasonMessage') ?? 'the prompt was blocked.');
  }
  const candidate = asArray(body['candidates']).find(isRecord);
  const finishReason = candidate === undefined ? undefined : readString(candidate, 'finishReason');
  const finishMessage = candidate === undefined ? undefined : readString(candidate, 'finishMessage');
  const explanation = finishMessage ?? (texts.length > 0 ? texts.join(' ') : undefined);
  // A normal stop without an image (the model answered in words) is what Gemini itself calls NO_IMAGE.
  const reason = finishReason === undefined || finishReason === 'STOP' ? 'NO_IMAGE' : finishReason;
  return imageFilteredError(reason, explanation);
}

/**
 * The size the requested aspect ratio produces. With none asked for, a generation comes out
 * square; an edit follows its input picture's shape, which the answer does not state.
 */
function reportedSize(request: ImageGenerationRequest): string | undefined {
  const entry = aspectRatioForSize(request.size, geminiImageSizes);
  if (entry !== undefined) return entry.size;
  return request.inputImages !== undefined && request.inputImages.length > 0 ? undefined : '1024x1024';
}
