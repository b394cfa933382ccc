import { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';
import { parseOrThrow } from '../../formats/validation/openai-parse-or-throw.js';
import type { ImageInput } from '../../ir/image-generation.js';
import type { VideoInputReference, VideoMode } from '../../ir/video-generation.js';
import { parseDataUrl } from '../../wire/data-url.js';
import type { MultipartForm } from '../multipart/read-multipart-form.js';

/** A video submit as the client sent it, types checked; what the model sells is checked later. */
export interface ClientVideoRequest {
  readonly model?: string;
  readonly prompt: string;
  readonly seconds?: number;
  readonly size?: string;
  readonly resolution?: string;
  readonly aspectRatio?: string;
  readonly mode?: VideoMode;
  readonly inputReference?: VideoInputReference;
}

/** `seconds` is a string as the `openai` SDK sends it; a number is accepted too. */
const secondsSchema = z.union([
  z.number().int('seconds must be a whole number').positive('seconds must be positive'),
  z
    .string()
    .regex(/^[1-9]\d{0,5}$/, 'seconds must be a whole number of seconds, such as "8"')
    .transform(Number),
]);

const videoRequestSchema = z
  .object({
    model: z.string().min(1).optional(),
    prompt: z.string().trim().min(1, 'the prompt must not be empty'),
    seconds: secondsSchema.optional(),
    size: z.string().regex(/^[1-9]\d{1,4}x[1-9]\d{1,4}$/, 'a size is WIDTHxHEIGHT, such as 1280x720').optional(),
    resolution: z.string().regex(/^[1-9]\d{2,4}p$/, 'a resolution such as 720p').optional(),
    aspect_ratio: z.string().regex(/^[1-9]\d?:[1-9]\d?$/, 'an aspect ratio such as 16:9').optional(),
    mode: z.enum(['text-to-video', 'image-to-video']).optional(),
    input_reference: z.object({ image_url: z.string().min(1) }).strict().optional(),
  })
  .strict();

const knownFields = new Set(Object.keys(videoRequestSchema.shape));

function assertKnownFields(names: Iterable<string>): void {
  for (const name of names) {
    if (!knownFields.has(name)) throw new GatewayError('unknown_parameter', `Unknown parameter: '${name}'.`, { param: name });
  }
}

function fromFields(fields: z.output<typeof videoRequestSchema>, file: ImageInput | undefined): ClientVideoRequest {
  const reference = file ?? (fields.input_reference === undefined ? undefined : referenceFromUrl(fields.input_reference.image_url));
  return {
    prompt: fields.prompt,
    ...(fields.model === undefined ? {} : { model: fields.model }),
    ...(fields.seconds === undefined ? {} : { seconds: fields.seconds }),
    ...(fields.size === undefined ? {} : { size: fields.size }),
    ...(fields.resolution === undefined ? {} : { resolution: fields.resolution }),
    ...(fields.aspect_ratio === undefined ? {} : { aspectRatio: fields.aspect_ratio }),
    ...(fields.mode === undefined ? {} : { mode: fields.mode }),
    ...(reference === undefined ? {} : { inputReference: reference }),
  };
}

/** A data URL is the image itself (so its size is checked like a file's); any other URL is fetched by the upstream. */
function referenceFromUrl(url: string): VideoInputReference {
  const data = parseDataUrl(url);
  if (data !== undefined) return { bytes: Buffer.from(data.data, 'base64'), mediaType: data.mediaType, filename: 'input_reference' };
  if (!/^https?:\/\//i.test(url)) {
    throw new GatewayError('invalid_field', "input_reference.image_url must be an http(s) URL or a data: URL.", { param: 'input_reference.image_url' });
  }
  return { url };
}

/** A JSON submit: `input_reference` as `{ image_url }`. */
export function decodeVideoJson(body: Record<string, unknown>): ClientVideoRequest {
  assertKnownFields(Object.keys(body));
  return fromFields(parseOrThrow(videoRequestSchema, body), undefined);
}

/**
 * A multipart submit, as the `openai` SDK sends every one: `input_reference` as a file, or as the
 * field `input_reference[image_url]`.
 */
export function decodeVideoForm(form: MultipartForm): ClientVideoRequest {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(form.fields)) {
    if (name === 'input_reference[image_url]') fields['input_reference'] = { image_url: value };
    else fields[name] = value;
  }
  assertKnownFields(Object.keys(fields));
  let file: ImageInput | undefined;
  for (const { field, file: part } of form.files) {
    if (field !== 'input_reference') throw new GatewayError('unknown_parameter', `Unknown file field: '${field}'.`, { param: field });
    if (file !== undefined) throw new GatewayError('invalid_field', 'Send one input_reference image.', { param: 'input_reference' });
    file = part;
  }
  if (file !== undefined && fields['input_reference'] !== undefined) {
    throw new GatewayError('invalid_field', 'Send input_reference as a file or as an image_url, not both.', { param: 'input_reference' });
  }
  return fromFields(parseOrThrow(videoRequestSchema, fields), file);
}
