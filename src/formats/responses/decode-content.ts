import { GatewayError } from '../../errors/gateway-error.js';
import type { FilePart, ImagePart, TextPart } from '../../ir/index.js';
import { parseDataUrl } from '../../wire/data-url.js';
import { imageUrlSource } from '../validation/image-url-source.js';
import type { ResponsesContentPartInput } from './responses-request-schema.js';

export type DecodedPart = TextPart | ImagePart | FilePart;

/** Message content or tool output (string or parts) as IR parts; `param` names the field for errors. */
export function decodeContent(content: string | readonly ResponsesContentPartInput[], param: string): DecodedPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content.map((part, index) => decodePart(part, `${param}[${index}]`));
}

function decodePart(part: ResponsesContentPartInput, param: string): DecodedPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    case 'input_image':
      return decodeImage(part, param);
    case 'input_file':
      return decodeFile(part, param);
    case 'input_audio': {
      const format = part.input_audio.format;
      return { type: 'file', source: { kind: 'base64', mediaType: format === 'mp3' ? 'audio/mpeg' : `audio/${format}`, data: part.input_audio.data } };
    }
  }
}

function decodeImage(
  part: { image_url?: string | null | undefined; file_id?: string | null | undefined; detail?: 'auto' | 'low' | 'high' | null | undefined },
  param: string,
): ImagePart {
  const withDetail = part.detail ? { detail: part.detail } : {};
  if (part.file_id) return { type: 'image', source: { kind: 'file', fileId: part.file_id }, ...withDetail };
  const url = part.image_url;
  if (!url) {
    throw new GatewayError('missing_field', `Missing required parameter: '${param}.image_url' or '${param}.file_id'.`, { param: `${param}.image_url` });
  }
  return { type: 'image', source: imageUrlSource(url, `${param}.image_url`), ...withDetail };
}

function decodeFile(
  part: { file_id?: string | null | undefined; file_data?: string | null | undefined; file_url?: string | null | undefined; filename?: string | null | undefined },
  param: string,
): FilePart {
  const withName = part.filename ? { filename: part.filename } : {};
  if (part.file_id) return { type: 'file', source: { kind: 'file', fileId: part.file_id }, ...withName };
  if (part.file_url) return { type: 'file', source: { kind: 'url', url: part.file_url }, ...withName };
  if (part.file_data) {
    const parsed = part.file_data.startsWith('data:') ? parseDataUrl(part.file_data) : undefined;
    // Bare base64 comes with a filename only; PDFs are what the API accepts there.
    const source = parsed
      ? ({ kind: 'base64', mediaType: parsed.mediaType, data: parsed.data } as const)
      : ({ kind: 'base64', mediaType: 'application/pdf', data: part.file_data } as const);
    return { type: 'file', source, ...withName };
  }
  throw new GatewayError('missing_field', `Missing required parameter: '${param}.file_id', '${param}.file_data' or '${param}.file_url'.`, {
    param: `${param}.file_data`,
  });
}
