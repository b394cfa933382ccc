import type { JsonRecord } from '../../json/json-value.js';
import type { PictureFormat } from './draw-picture.js';
import type { OpenAiImageError } from './openai-image-errors.js';
import {
  integerOutOfRange,
  invalidRequest,
  invalidType,
  invalidValue,
  missingParameter,
  unknownParameter,
} from './openai-image-errors.js';

export type ImageQuality = 'low' | 'medium' | 'high';

/** A gpt-image request after validation, with `auto` already resolved to what is produced. */
export interface OpenAiImageOptions {
  readonly model: string;
  readonly prompt: string;
  readonly count: number;
  /** `auto` while the size waits for an edit's input picture; otherwise `WxH`. */
  readonly size: string;
  readonly quality: ImageQuality;
  readonly format: PictureFormat;
  readonly compression: number | undefined;
  readonly background: 'transparent' | 'opaque';
  readonly stream: boolean;
  readonly partialImages: number;
}

/** JSON bodies carry typed values; multipart forms carry every value as a string. */
export type FieldSource = 'json' | 'form';

export const standardSizes = ['1024x1024', '1024x1536', '1536x1024'] as const;
const qualities = ['low', 'medium', 'high', 'auto'] as const;
const formats = ['png', 'jpeg', 'webp'] as const;
const backgrounds = ['transparent', 'opaque', 'auto'] as const;
const moderations = ['low', 'auto'] as const;
const maxPromptCharacters = 32_000;

type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: OpenAiImageError };

const accept = <T>(value: T): Parsed<T> => ({ ok: true, value });
const refuse = (error: OpenAiImageError): Parsed<never> => ({ ok: false, error });

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function readInteger(fields: JsonRecord, source: FieldSource, param: string, minimum: number, maximum: number): Parsed<number | undefined> {
  const raw = fields[param];
  if (raw === undefined || raw === null) return accept(undefined);
  const value = source === 'form' && typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) return refuse(invalidType(param, 'an integer', typeName(raw)));
  if (value < minimum || value > maximum) return refuse(integerOutOfRange(param, value, minimum, maximum));
  return accept(value);
}

function readChoice<T extends string>(fields: JsonRecord, param: string, allowed: readonly T[], fallback: T): Parsed<T> {
  const raw = fields[param];
  if (raw === undefined || raw === null) return accept(fallback);
  if (typeof raw !== 'string') return refuse(invalidType(param, 'a string', typeName(raw)));
  const match = allowed.find((entry) => entry === raw);
  return match === undefined ? refuse(invalidValue(param, raw, allowed)) : accept(match);
}

function readBoolean(fields: JsonRecord, source: FieldSource, param: string): Parsed<boolean> {
  const raw = fields[param];
  if (raw === undefined || raw === null) return accept(false);
  if (typeof raw === 'boolean') return accept(raw);
  if (source === 'form' && (raw === 'true' || raw === 'false')) return accept(raw === 'true');
  return refuse(invalidType(param, 'a boolean', typeName(raw)));
}

/** gpt-image-2 draws any `WxH` within its limits; the older models only the three standard sizes. */
function readSize(fields: JsonRecord, model: string): Parsed<string> {
  const raw = fields.size;
  if (raw === undefined || raw === null || raw === 'auto') return accept('auto');
  if (typeof raw !== 'string') return refuse(invalidType('size', 'a string', typeName(raw)));
  if ((standardSizes as readonly string[]).includes(raw)) return accept(raw);
  const flexible = model.startsWith('gpt-image-2');
  const dimensions = /^(\d{2,5})x(\d{2,5})$/.exec(raw);
  if (!flexible || dimensions === null) return refuse(invalidValue('size', raw, [...standardSizes, 'auto']));
  const width = Number(dimensions[1]);
  const height = Number(dimensions[2]);
  const pixels = width * height;
  const withinLimits =
    width % 16 === 0 &&
    height % 16 === 0 &&
    Math.max(width, height) <= 3840 &&
    Math.max(width, height) / Math.min(width, height) <= 3 &&
    pixels >= 655_360 &&
    pixels <= 8_294_400;
  if (withinLimits) return accept(raw);
  const rule =
    'Width and height must be multiples of 16, at most 3840, with an aspect ratio of at most 3:1 and between 655360 and 8294400 pixels.';
  return refuse(invalidRequest(`Invalid size '${raw}'. ${rule}`, 'size', 'invalid_value'));
}

function readPrompt(fields: JsonRecord): Parsed<string> {
  const raw = fields.prompt;
  if (raw === undefined || raw === null) return refuse(missingParameter('prompt'));
  if (typeof raw !== 'string') return refuse(invalidType('prompt', 'a string', typeName(raw)));
  if (raw.length === 0) {
    const message = "Invalid 'prompt': string too short. Expected a string with minimum length 1, but got an empty string instead.";
    return refuse(invalidRequest(message, 'prompt', 'string_below_min_length'));
  }
  if (raw.length > maxPromptCharacters) {
    const message = `Invalid 'prompt': string too long. Expected a string with maximum length ${maxPromptCharacters}, but got a string with length ${raw.length} instead.`;
    return refuse(invalidRequest(message, 'prompt', 'string_above_max_length'));
  }
  return accept(raw);
}

/** Checks a generation or edit request field by field, in the order the API reports problems. */
export function readOpenAiImageOptions(fields: JsonRecord, source: FieldSource): Parsed<OpenAiImageOptions> {
  // gpt-image models always answer in base64 and refuse the dall-e switch outright.
  if (fields.response_format !== undefined) return refuse(unknownParameter('response_format'));
  const model = typeof fields.model === 'string' && fields.model !== '' ? fields.model : 'gpt-image-1';
  const prompt = readPrompt(fields);
  if (!prompt.ok) return prompt;
  const count = readInteger(fields, source, 'n', 1, 10);
  if (!count.ok) return count;
  const size = readSize(fields, model);
  if (!size.ok) return size;
  const quality = readChoice(fields, 'quality', qualities, 'auto');
  if (!quality.ok) return quality;
  const format = readChoice(fields, 'output_format', formats, 'png');
  if (!format.ok) return format;
  const compression = readInteger(fields, source, 'output_compression', 0, 100);
  if (!compression.ok) return compression;
  const background = readChoice(fields, 'background', backgrounds, 'auto');
  if (!background.ok) return background;
  if (background.value === 'transparent' && format.value === 'jpeg') {
    const message = "Transparent background is not supported for output format 'jpeg'. Use 'png' or 'webp'.";
    return refuse(invalidRequest(message, 'background', 'invalid_value'));
  }
  const moderation = readChoice(fields, 'moderation', moderations, 'auto');
  if (!moderation.ok) return moderation;
  const stream = readBoolean(fields, source, 'stream');
  if (!stream.ok) return stream;
  const partialImages = readInteger(fields, source, 'partial_images', 0, 3);
  if (!partialImages.ok) return partialImages;
  return accept({
    model,
    prompt: prompt.value,
    count: count.value ?? 1,
    size: size.value,
    // `auto` becomes a concrete tier, as the API reports the quality it produced.
    quality: quality.value === 'auto' ? 'medium' : quality.value,
    format: format.value,
    compression: compression.value,
    background: background.value === 'transparent' ? 'transparent' : 'opaque',
    stream: stream.value,
    partialImages: partialImages.value ?? 0,
  });
}
