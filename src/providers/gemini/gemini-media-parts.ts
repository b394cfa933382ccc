import { GatewayError } from '../../errors/gateway-error.js';
import type { FilePart, ImagePart } from '../../ir/index.js';
import type { GeminiRequestPart } from './wire/generate-content-request.js';

const mimeTypesByExtension: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  csv: 'text/csv',
  json: 'application/json',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  aac: 'audio/aac',
  mp4: 'video/mp4',
  mpeg: 'video/mpeg',
  mov: 'video/quicktime',
  webm: 'video/webm',
};

/**
 * Gemini's `fileData` needs a MIME type that a URL does not state; it is guessed from the
 * extension of the URL path (or the file name), with a per-kind fallback.
 */
export function guessMimeType(urlOrName: string, fallback: string): string {
  const path = urlOrName.split(/[?#]/)[0] ?? '';
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && mimeTypesByExtension[extension]) || fallback;
}

/** A `data:` URL that a client put where a URL goes is sent inline, not as a file reference. */
function fromDataUrl(url: string): GeminiRequestPart | undefined {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (!match?.[1] || match[2] === undefined) return undefined;
  return { inlineData: { mimeType: match[1], data: match[2] } };
}

function fromUrl(url: string, mimeFallback: string, name?: string): GeminiRequestPart {
  const inline = fromDataUrl(url);
  if (inline) return inline;
  return { fileData: { fileUri: url, mimeType: guessMimeType(name ?? url, mimeFallback) } };
}

/**
 * A file id only means something to the API that issued it; Gemini can use one only when it is
 * a URI (a Gemini Files API URI or a `gs://` object), so other ids are refused.
 */
function fromFileId(fileId: string, mimeFallback: string, name?: string): GeminiRequestPart {
  if (/^(https?|gs):\/\//.test(fileId)) {
    return { fileData: { fileUri: fileId, mimeType: guessMimeType(name ?? fileId, mimeFallback) } };
  }
  throw new GatewayError(
    'unsupported_combination',
    `File id "${fileId}" belongs to another provider and cannot be sent to a Gemini model; send the content inline or as a URL.`,
  );
}

export function imageToGemini(part: ImagePart): GeminiRequestPart {
  const source = part.source;
  // Unknown image extensions fall back to JPEG, the most common camera and web format.
  if (source.kind === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
  if (source.kind === 'url') return fromUrl(source.url, 'image/jpeg');
  return fromFileId(source.fileId, 'image/jpeg');
}

export function fileToGemini(part: FilePart): GeminiRequestPart {
  const source = part.source;
  const fallback = 'application/octet-stream';
  if (source.kind === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
  if (source.kind === 'text') return { text: source.text };
  if (source.kind === 'url') return fromUrl(source.url, fallback, part.filename);
  return fromFileId(source.fileId, fallback, part.filename);
}
