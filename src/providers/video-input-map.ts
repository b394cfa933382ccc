import type { VideoGenerationRequest, VideoInputReference } from '../ir/video-generation.js';
import type { RouteProblem, VideoVariantShape } from './provider-adapter.js';

/**
 * A vendor request field's value in an `input` map: a template string, or a literal (a number, a
 * boolean, null, or an object or array holding more of them).
 */
export type VideoInputValue = string | number | boolean | null | readonly VideoInputValue[] | { readonly [field: string]: VideoInputValue };

/** The vendor's request fields, each filled from the public request: `{ duration: "{seconds:string}" }`. */
export type VideoInputMap = Readonly<Record<string, VideoInputValue>>;

/**
 * What a template can name, from the public request. `seconds` is a number; `input_reference` is
 * the first frame as a URL the vendor can read (a link as the client sent it, an upload as a
 * `data:` URL) and leaves its field out of a text-to-video request; the rest are strings.
 */
export const inputPlaceholders = ['prompt', 'seconds', 'size', 'width', 'height', 'aspect_ratio', 'resolution', 'mode', 'input_reference'] as const;
export type InputPlaceholder = (typeof inputPlaceholders)[number];

/** How a placeholder's value is written: as it is, as a string, as a number, or in upper or lower case. */
const conversions = ['string', 'number', 'upper', 'lower'] as const;
type Conversion = (typeof conversions)[number];

type TemplatePart = { readonly text: string } | { readonly placeholder: InputPlaceholder; readonly conversion?: Conversion };

const placeholderPattern = /\{\{|\}\}|\{([a-z_]+)(?::([a-z]+))?\}|[{}]/g;

/** A template's parts, or why it cannot be read. `{{` and `}}` stand for a literal brace. */
export function parseTemplate(template: string): readonly TemplatePart[] | string {
  const parts: TemplatePart[] = [];
  let text = '';
  let last = 0;
  for (const match of template.matchAll(placeholderPattern)) {
    text += template.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[0] === '{{' || match[0] === '}}') {
      text += match[0] === '{{' ? '{' : '}';
      continue;
    }
    const [whole, name, conversion] = match;
    if (name === undefined) return `a lone '${whole}' (write '{{' or '}}' for a brace)`;
    if (!(inputPlaceholders as readonly string[]).includes(name)) return `unknown placeholder {${name}} (known: ${inputPlaceholders.map((known) => `{${known}}`).join(', ')})`;
    if (conversion !== undefined && !(conversions as readonly string[]).includes(conversion)) return `unknown conversion ':${conversion}' in {${name}:${conversion}} (known: ${conversions.join(', ')})`;
    if (text !== '') parts.push({ text });
    text = '';
    parts.push({ placeholder: name as InputPlaceholder, ...(conversion === undefined ? {} : { conversion: conversion as Conversion }) });
  }
  text += template.slice(last);
  if (text !== '') parts.push({ text });
  return parts;
}

/** Every template of a map with the field path it fills (`duration`, `image_size.width`). */
function* templatesOf(value: VideoInputValue, path: string): Generator<{ readonly path: string; readonly template: string }> {
  if (typeof value === 'string') yield { path, template: value };
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* templatesOf(item as VideoInputValue, `${path}[${index}]`);
  else if (value !== null && typeof value === 'object') for (const [field, item] of Object.entries(value)) yield* templatesOf(item as VideoInputValue, `${path}.${field}`);
}

/** Where each placeholder is used in a map, and the problems of templates that cannot be read. */
export function readInputMap(map: VideoInputMap): { readonly uses: ReadonlyMap<InputPlaceholder, readonly string[]>; readonly problems: readonly RouteProblem[] } {
  const uses = new Map<InputPlaceholder, string[]>();
  const problems: RouteProblem[] = [];
  for (const [field, value] of Object.entries(map)) {
    for (const { path, template } of templatesOf(value, field)) {
      const parts = parseTemplate(template);
      if (typeof parts === 'string') {
        problems.push({ field: `input.${path}`, message: parts });
        continue;
      }
      for (const part of parts) {
        if (!('placeholder' in part)) continue;
        if (part.conversion === 'number' && parts.length > 1) problems.push({ field: `input.${path}`, message: `{${part.placeholder}:number} must be the whole template: a number cannot be written inside text` });
        if (part.placeholder === 'input_reference' && parts.length > 1) problems.push({ field: `input.${path}`, message: '{input_reference} must be the whole template: it is a URL of its own' });
        uses.set(part.placeholder, [...(uses.get(part.placeholder) ?? []), path]);
      }
    }
  }
  return { uses, problems };
}

const distinct = <Value>(values: readonly Value[]): number => new Set(values).size;

/**
 * What a route's map cannot express of the variants its model sells: the prompt must reach the
 * vendor; an image-to-video variant needs a field for `{input_reference}`; lengths, resolutions or
 * aspect ratios that differ between variants need a field that carries them (a single value may be
 * the vendor's default). Each problem names the field.
 */
export function checkInputMap(map: VideoInputMap, variants: readonly VideoVariantShape[]): RouteProblem[] {
  const { uses, problems } = readInputMap(map);
  const found = [...problems];
  const carries = (...names: InputPlaceholder[]): boolean => names.some((name) => uses.has(name));
  if (!carries('prompt')) found.push({ field: 'input', message: 'no field is filled from {prompt}: the prompt would never reach the upstream' });
  const imageVariant = variants.find((variant) => variant.mode === 'image-to-video');
  if (imageVariant !== undefined && !carries('input_reference')) {
    found.push({ field: 'input', message: `the model sells image-to-video (${imageVariant.resolution} ${imageVariant.aspectRatio}) but no field is filled from {input_reference}` });
  }
  const lengths = variants.flatMap((variant) => variant.seconds);
  if (distinct(lengths) > 1 && !carries('seconds')) found.push({ field: 'input', message: `the model sells ${[...new Set(lengths)].join('/')} s but no field is filled from {seconds}` });
  if (distinct(variants.map((variant) => variant.aspectRatio)) > 1 && !carries('aspect_ratio', 'size', 'width', 'height')) {
    found.push({ field: 'input', message: 'the model sells several aspect ratios but no field is filled from {aspect_ratio}, {size}, {width} or {height}' });
  }
  if (distinct(variants.map((variant) => variant.resolution)) > 1 && !carries('resolution', 'size', 'width', 'height')) {
    found.push({ field: 'input', message: 'the model sells several resolutions but no field is filled from {resolution}, {size}, {width} or {height}' });
  }
  return found;
}

/** The first frame as a URL the vendor reads: a link as given, an upload inline as a `data:` URL. */
export function referenceUrl(reference: VideoInputReference): string {
  if ('url' in reference) return reference.url;
  return `data:${reference.mediaType};base64,${Buffer.from(reference.bytes).toString('base64')}`;
}

function valueOf(placeholder: InputPlaceholder, request: VideoGenerationRequest): string | number | undefined {
  const [width, height] = request.size.split('x');
  switch (placeholder) {
    case 'prompt':
      return request.prompt;
    case 'seconds':
      return request.seconds;
    case 'size':
      return request.size;
    case 'width':
      return Number(width);
    case 'height':
      return Number(height);
    case 'aspect_ratio':
      return request.aspectRatio;
    case 'resolution':
      return request.resolution;
    case 'mode':
      return request.mode;
    case 'input_reference':
      return request.inputReference === undefined ? undefined : referenceUrl(request.inputReference);
  }
}

function convert(value: string | number, conversion: Conversion | undefined): string | number {
  switch (conversion) {
    case undefined:
      return value;
    case 'string':
      return String(value);
    case 'number':
      return Number(value);
    case 'upper':
      return String(value).toUpperCase();
    case 'lower':
      return String(value).toLowerCase();
  }
}

/** Marks a field left out: its placeholder has no value in this request (no first frame). */
const absent = Symbol('absent');

function renderTemplate(template: string, request: VideoGenerationRequest): unknown {
  const parts = parseTemplate(template);
  // The map was read at start; a template that cannot be read never gets here.
  if (typeof parts === 'string') throw new RangeError(parts);
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only !== undefined && 'placeholder' in only) {
    // One placeholder alone keeps its value's type (a number stays a number) unless converted.
    const value = valueOf(only.placeholder, request);
    return value === undefined ? absent : convert(value, only.conversion);
  }
  let text = '';
  for (const part of parts) {
    if (!('placeholder' in part)) {
      text += part.text;
      continue;
    }
    const value = valueOf(part.placeholder, request);
    if (value === undefined) return absent;
    text += String(convert(value, part.conversion));
  }
  return text;
}

function renderValue(value: VideoInputValue, request: VideoGenerationRequest): unknown {
  if (typeof value === 'string') return renderTemplate(value, request);
  if (Array.isArray(value)) return value.map((item: VideoInputValue) => renderValue(item, request)).filter((item) => item !== absent);
  if (value !== null && typeof value === 'object') return renderObject(value as VideoInputMap, request);
  return value;
}

function renderObject(map: VideoInputMap, request: VideoGenerationRequest): Record<string, unknown> {
  const rendered: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(map)) {
    const filled = renderValue(value, request);
    if (filled !== absent) rendered[field] = filled;
  }
  return rendered;
}

/** The vendor's request body: every field of the map filled from the request, a field without a value left out. */
export function renderInputMap(map: VideoInputMap, request: VideoGenerationRequest): Record<string, unknown> {
  return renderObject(map, request);
}
