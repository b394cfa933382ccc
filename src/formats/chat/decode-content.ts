import { GatewayError } from '../../errors/gateway-error.js';
import type { FilePart, ImagePart, TextPart } from '../../ir/index.js';
import { parseDataUrl } from '../../wire/data-url.js';
import { imageUrlSource } from '../validation/image-url-source.js';
import type { ChatContentPartInput } from './chat-request-schema.js';

export type DecodedPart = TextPart | ImagePart | FilePart;

/** Chat message content (string or parts) as IR parts; `param` names the content field for errors. */
export function decodeContent(content: string | readonly ChatContentPartInput[] | null | undefined, param: string): DecodedPart[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content.map((part, index) => decodePart(part, `${param}[${index}]`));
}

function decodePart(part: ChatContentPartInput, param: string): DecodedPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    case 'image_url':
      return decodeImage(part.image_url, `${param}.image_url`);
    case 'input_audio': {
      const format = part.input_audio.format;
      return { type: 'file', source: { kind: 'base64', mediaType: audioMediaType(format), data: part.input_audio.data } };
    }
    case 'file':
      return decodeFile(part.file, `${param}.file`);
  }
}

function decodeImage(image: string | { url: string; detail?: 'auto' | 'low' | 'high' | undefined }, param: string): ImagePart {
  const url = typeof image === 'string' ? image : image.url;
  const detail = typeof image === 'string' ? undefined : image.detail;
  const withDetail = detail === undefined ? {} : { detail };
  return { type: 'image', source: imageUrlSource(url, `${param}.url`), ...withDetail };
}

function decodeFile(file: { file_id?: string | undefined; file_data?: string | undefined; filename?: string | undefined }, param: string): FilePart {
  const withName = file.filename === undefined ? {} : { filename: file.filename };
  if (file.file_data !== undefined) {
    const parsed = file.file_data.startsWith('data:') ? parseDataUrl(file.file_data) : undefined;
    const source = parsed
      ? ({ kind: 'base64', mediaType: parsed.mediaType, data: parsed.data } as const)
      : ({ kind: 'base64', mediaType: mediaTypeForFilename(file.filename), data: file.file_data } as const);
    return { type: 'file', source, ...withName };
  }
  if (file.file_id !== undefined) return { type: 'file', source: { kind: 'file', fileId: file.file_id }, ...withName };
  throw new GatewayError('missing_field', `Missing required parameter: '${param}.file_data' or '${param}.file_id'.`, {
    param: `${param}.file_data`,
  });
}

function audioMediaType(format: string): string {
  return format === 'mp3' ? 'audio/mpeg' : `audio/${format}`;
}

/** Chat sends bare base64 file data with only a filename; PDFs are what the API accepts there. */
function mediaTypeForFilename(filename: string | undefined): string {
  const extension = filename?.split('.').pop()?.toLowerCase();
  const known: Readonly<Record<string, string>> = {
    pdf: 'application/pdf',
    txt: 'text/plain',
    md: 'text/markdown',
    json: 'application/json',
    csv: 'text/csv',
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
  };
  return (extension === undefined ? undefined : known[extension]) ?? 'application/pdf';
}
