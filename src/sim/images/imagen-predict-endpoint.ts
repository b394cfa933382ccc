import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonRecord } from '../../json/json-value.js';
import { asArray, asRecord } from '../../json/json-value.js';
import { applyHeaderControls, parseDirectives } from '../directives.js';
import { errorBody } from '../error-bodies.js';
import type { SimulatorState } from '../handle-generation.js';
import { readJsonBody } from '../read-json-body.js';
import { ResponseLifetime } from '../response-lifetime.js';
import { sendJson } from '../send-json.js';
import type { PictureFormat } from './draw-picture.js';
import { drawPicture } from './draw-picture.js';
import { invalidArgument } from './google-error.js';
import type { PixelSize } from './google-image-sizes.js';
import { imagenAspectRatios, resolutionScales, scaled } from './google-image-sizes.js';
import { asksForRefusal } from './refusal-directive.js';

interface ImagenRequest {
  readonly prompt: string;
  readonly count: number;
  readonly size: PixelSize;
  readonly mimeType: 'image/png' | 'image/jpeg';
  readonly quality: number | undefined;
  readonly includeRaiReason: boolean;
}

const mimeFormats: Record<ImagenRequest['mimeType'], PictureFormat> = { 'image/png': 'png', 'image/jpeg': 'jpeg' };

/** Reads `instances[0].prompt` and `parameters`; a string is the 400 message. */
function readImagenRequest(body: JsonRecord): ImagenRequest | string {
  const instance = asRecord(asArray(body.instances)[0]);
  const prompt = instance?.prompt;
  if (typeof prompt !== 'string' || prompt.trim() === '') return 'instances[0].prompt is required and must be a non-empty string.';
  const parameters = asRecord(body.parameters) ?? {};
  // The Gemini API's default for Imagen is four images.
  const count = parameters.sampleCount ?? 4;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 4) {
    return `parameters.sampleCount must be an integer from 1 to 4, got ${JSON.stringify(count)}.`;
  }
  const ratio = parameters.aspectRatio ?? '1:1';
  const base = typeof ratio === 'string' ? imagenAspectRatios[ratio] : undefined;
  if (base === undefined) {
    return `parameters.aspectRatio ${JSON.stringify(ratio)} is not supported. Supported values: ${Object.keys(imagenAspectRatios).join(', ')}.`;
  }
  const resolution = parameters.sampleImageSize ?? '1K';
  const scale = typeof resolution === 'string' && resolution !== '4K' ? resolutionScales[resolution] : undefined;
  if (scale === undefined) return `parameters.sampleImageSize ${JSON.stringify(resolution)} is not supported. Supported values: 1K, 2K.`;
  const outputOptions = asRecord(parameters.outputOptions) ?? {};
  const mimeType = outputOptions.mimeType ?? 'image/png';
  if (mimeType !== 'image/png' && mimeType !== 'image/jpeg') {
    return `parameters.outputOptions.mimeType ${JSON.stringify(mimeType)} is not supported. Supported values: image/png, image/jpeg.`;
  }
  const quality = outputOptions.compressionQuality;
  return {
    prompt,
    count,
    size: scaled(base, scale),
    mimeType,
    quality: typeof quality === 'number' ? quality : undefined,
    includeRaiReason: parameters.includeRaiReason === true,
  };
}

/** `POST /v1beta/models/{model}:predict`: Imagen's instances and parameters in, predictions out. */
export async function handleImagenPredict(request: IncomingMessage, response: ServerResponse, state: SimulatorState): Promise<void> {
  const parsed = await readJsonBody(request);
  state.nextSequence();
  if (parsed.kind !== 'ok') {
    const status = parsed.kind === 'too-large' ? 413 : 400;
    const message = parsed.kind === 'too-large' ? 'The request body is too large.' : parsed.message;
    sendJson(response, status, errorBody('gemini', status, message, ''));
    return;
  }
  const imagen = readImagenRequest(parsed.body);
  if (typeof imagen === 'string') {
    const error = invalidArgument(imagen);
    sendJson(response, error.status, error.body);
    return;
  }
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const directives = applyHeaderControls(parseDirectives(imagen.prompt), header);
  if (!(await new ResponseLifetime(response).wait(directives.delayMs))) return;
  if (directives.errorStatus !== null) {
    const message = `Simulated error: status ${directives.errorStatus} was requested.`;
    sendJson(response, directives.errorStatus, errorBody('gemini', directives.errorStatus, message, ''));
    return;
  }
  if (asksForRefusal(imagen.prompt)) {
    // Imagen drops filtered images silently; only `includeRaiReason` says why.
    const reason = 'Your current safety filter threshold filtered out the generated image. Try rephrasing the prompt.';
    sendJson(response, 200, imagen.includeRaiReason ? { predictions: [{ raiFilteredReason: reason }] } : {});
    return;
  }
  const predictions: JsonRecord[] = [];
  for (let index = 0; index < imagen.count; index += 1) {
    const picture = await drawPicture({
      prompt: imagen.prompt,
      index,
      ...imagen.size,
      format: mimeFormats[imagen.mimeType],
      transparent: false,
      compression: imagen.quality,
    });
    predictions.push({ bytesBase64Encoded: picture.toString('base64'), mimeType: imagen.mimeType });
  }
  sendJson(response, 200, { predictions });
}
