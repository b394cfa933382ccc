import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonRecord } from '../../json/json-value.js';
import { asArray, asRecord, asString } from '../../json/json-value.js';
import { applyHeaderControls, parseDirectives, stripDirectives } from '../directives.js';
import { errorBody } from '../error-bodies.js';
import { extractGemini } from '../extract-gemini.js';
import type { Delivery, SimulatorState } from '../handle-generation.js';
import { arrayFrames } from '../handle-generation.js';
import { inputTokensFor } from '../plan-reply.js';
import { ResponseLifetime } from '../response-lifetime.js';
import { sendJson } from '../send-json.js';
import { frameSse } from '../sim-endpoint.js';
import { simIdentity } from '../sim-ids.js';
import { writeStream } from '../write-stream.js';
import { drawPicture } from './draw-picture.js';
import { invalidArgument } from './google-error.js';
import type { PixelSize } from './google-image-sizes.js';
import { geminiAspectRatios, resolutionScales, scaled } from './google-image-sizes.js';
import { asksForRefusal } from './refusal-directive.js';

/** Gemini counts every input picture as 258 tokens. */
const inputImageTokens = 258;

function wantsText(body: JsonRecord): boolean {
  const modalities = asArray(asRecord(body.generationConfig)?.responseModalities);
  return modalities.some((modality) => typeof modality === 'string' && modality.toUpperCase() === 'TEXT');
}

/** `inlineData` pictures of the last user turn: the pictures to edit. */
function inputPictures(body: JsonRecord): Buffer[] {
  const turns = asArray(body.contents).map(asRecord).filter((turn) => turn !== undefined && turn.role !== 'model');
  const parts = asArray(turns.at(-1)?.parts).map(asRecord);
  return parts
    .map((part) => asRecord(part?.inlineData))
    .filter((inline) => asString(inline?.mimeType)?.startsWith('image/') === true)
    .map((inline) => Buffer.from(asString(inline?.data) ?? '', 'base64'));
}

/** The output size from `imageConfig`, or the 400 message. */
function outputSize(body: JsonRecord): PixelSize | string {
  const config = asRecord(asRecord(body.generationConfig)?.imageConfig) ?? {};
  const ratio = config.aspectRatio ?? '1:1';
  const base = typeof ratio === 'string' ? geminiAspectRatios[ratio] : undefined;
  if (base === undefined) {
    return `* GenerateContentRequest.generation_config.image_config.aspect_ratio: unsupported value ${JSON.stringify(ratio)}. Supported values: ${Object.keys(geminiAspectRatios).join(', ')}.`;
  }
  const resolution = config.imageSize ?? '1K';
  const scale = typeof resolution === 'string' ? resolutionScales[resolution] : undefined;
  if (scale === undefined) {
    return `* GenerateContentRequest.generation_config.image_config.image_size: unsupported value ${JSON.stringify(resolution)}. Supported values: 1K, 2K, 4K.`;
  }
  return scaled(base, scale);
}

/** Output image tokens as Google reports them: 1290 per image on 2.5, 1120 (2000 at 4K) on Gemini 3. */
function outputImageTokens(model: string, size: PixelSize): number {
  if (!model.startsWith('gemini-3')) return 1290;
  return size.width * size.height > 2048 * 2048 ? 2000 : 1120;
}

/**
 * `generateContent` (and `streamGenerateContent`) with `IMAGE` in `responseModalities`: a text part
 * when `TEXT` is asked for too, then the picture as `inlineData`. Gemini 3 models answer in JPEG,
 * the 2.5 models in PNG, as recorded.
 */
export async function handleGeminiImage(
  request: IncomingMessage,
  response: ServerResponse,
  body: JsonRecord,
  route: { readonly delivery: Delivery; readonly pathModel?: string },
  state: SimulatorState,
): Promise<void> {
  const identity = simIdentity(state.nextSequence());
  const model = route.pathModel ?? 'sim-model';
  const conversation = extractGemini(body, model);
  const size = outputSize(body);
  if (typeof size === 'string') {
    const error = invalidArgument(size);
    sendJson(response, error.status, error.body);
    return;
  }
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const directives = applyHeaderControls(parseDirectives(conversation.userText), header);
  const streaming = route.delivery !== 'json';
  const lifetime = new ResponseLifetime(response);
  if (streaming) state.streamOpened();
  try {
    if (!(await lifetime.wait(directives.delayMs))) return;
    if (directives.errorStatus !== null) {
      const message = `Simulated error: status ${directives.errorStatus} was requested.`;
      sendJson(response, directives.errorStatus, errorBody('gemini', directives.errorStatus, message, ''));
      return;
    }
    const inputs = inputPictures(body);
    const textTokens = inputTokensFor(conversation.inputCharacters);
    const promptDetails = [{ modality: 'TEXT', tokenCount: textTokens }];
    if (inputs.length > 0) promptDetails.push({ modality: 'IMAGE', tokenCount: inputImageTokens * inputs.length });
    const promptTokenCount = textTokens + inputImageTokens * inputs.length;
    const envelope = (candidate: JsonRecord, usage: JsonRecord): JsonRecord => ({
      candidates: [{ ...candidate, index: 0 }],
      usageMetadata: { promptTokenCount, promptTokensDetails: promptDetails, ...usage },
      modelVersion: model,
      responseId: identity.tag,
    });

    let answers: JsonRecord[];
    if (asksForRefusal(conversation.userText)) {
      answers = [envelope({ finishReason: 'IMAGE_SAFETY' }, { totalTokenCount: promptTokenCount })];
    } else {
      const jpeg = model.startsWith('gemini-3');
      const picture = await drawPicture({
        prompt: conversation.userText,
        index: 0,
        ...size,
        format: jpeg ? 'jpeg' : 'png',
        transparent: false,
        compression: jpeg ? 90 : undefined,
        inputs,
      }).catch(() => undefined);
      if (picture === undefined) {
        const error = invalidArgument('Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting');
        sendJson(response, error.status, error.body);
        return;
      }
      const imagePart = { inlineData: { mimeType: jpeg ? 'image/jpeg' : 'image/png', data: picture.toString('base64') } };
      const text = wantsText(body) ? `Here is a picture of: ${stripDirectives(conversation.userText).slice(0, 200)}` : null;
      const textTokens = text === null ? 0 : Math.max(1, Math.ceil(text.length / 4));
      const imageTokens = outputImageTokens(model, size);
      const candidatesDetails = [{ modality: 'IMAGE', tokenCount: imageTokens }];
      if (text !== null) candidatesDetails.unshift({ modality: 'TEXT', tokenCount: textTokens });
      const finalUsage = {
        candidatesTokenCount: textTokens + imageTokens,
        candidatesTokensDetails: candidatesDetails,
        totalTokenCount: promptTokenCount + textTokens + imageTokens,
      };
      const textUsage = { candidatesTokenCount: textTokens, totalTokenCount: promptTokenCount + textTokens };
      const content = (parts: JsonRecord[]): JsonRecord => ({ parts, role: 'model' });
      answers = streaming
        ? [
            ...(text === null ? [] : [envelope({ content: content([{ text }]) }, textUsage)]),
            envelope({ content: content([imagePart]), finishReason: 'STOP' }, finalUsage),
          ]
        : [envelope({ content: content(text === null ? [imagePart] : [{ text }, imagePart]), finishReason: 'STOP' }, finalUsage)];
    }
    if (!streaming) {
      sendJson(response, 200, answers[0]);
      return;
    }
    if (lifetime.closed) return;
    const sse = route.delivery === 'sse';
    response.writeHead(200, {
      'content-type': sse ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8',
      'cache-control': 'no-cache',
    });
    const events = answers.map((data) => ({ data }));
    await writeStream(response, lifetime, sse ? events.map(frameSse) : arrayFrames(events), directives.paceMs);
  } finally {
    if (streaming) state.streamClosed();
  }
}
