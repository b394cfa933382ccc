import { GatewayError } from '../../../errors/gateway-error.js';
import type { FilePart, ImagePart } from '../../../ir/index.js';
import type {
  ConverseDocumentBlock,
  ConverseDocumentFormat,
  ConverseImageBlock,
  ConverseImageFormat,
  ConverseSource,
} from './wire/converse-request.js';

const imageFormats: Readonly<Record<string, ConverseImageFormat>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const documentFormats: Readonly<Record<string, ConverseDocumentFormat>> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

const extensions: Readonly<Record<string, string>> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp',
  pdf: 'application/pdf', csv: 'text/csv', doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', html: 'text/html', txt: 'text/plain', md: 'text/markdown',
};

interface Located {
  readonly mediaType: string | undefined;
  readonly source: ConverseSource;
}

function refused(detail: string, param: string): GatewayError {
  return new GatewayError('unsupported_combination', detail, { param });
}

function mediaTypeFromName(name: string): string | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(name.split(/[?#]/)[0] ?? '')?.[1]?.toLowerCase();
  return extension === undefined ? undefined : extensions[extension];
}

/**
 * Converse takes media only as bytes or as an S3 object, never at a web address: a `data:` URL is
 * sent as its bytes, an `s3://` URI (a URL or a file id) as an S3 location, anything else refused.
 */
function locate(url: string, name: string | undefined, param: string): Located {
  const dataUrl = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (dataUrl?.[1] !== undefined && dataUrl[2] !== undefined) return { mediaType: dataUrl[1], source: { bytes: dataUrl[2] } };
  if (url.startsWith('s3://')) return { mediaType: mediaTypeFromName(name ?? url), source: { s3Location: { uri: url } } };
  throw refused('This model takes images and documents only inline (base64) or from an s3:// location, not from a web address.', param);
}

function imageFormat(mediaType: string | undefined, param: string): ConverseImageFormat {
  const format = mediaType === undefined ? undefined : imageFormats[mediaType.toLowerCase()];
  if (format === undefined) throw refused(`Images of type ${mediaType ?? 'unknown'} cannot be sent to this model; it accepts PNG, JPEG, GIF and WebP.`, param);
  return format;
}

export function encodeImage(part: ImagePart, param: string): ConverseImageBlock {
  const source = part.source;
  const located = source.kind === 'base64'
    ? { mediaType: source.mediaType, source: { bytes: source.data } }
    : locate(source.kind === 'url' ? source.url : source.fileId, undefined, param);
  return { image: { format: imageFormat(located.mediaType, param), source: located.source } };
}

/**
 * Converse allows a document name of letters, digits, single spaces, hyphens, parentheses and
 * square brackets; a file name is made to fit (its extension is carried by `format`).
 */
function documentName(filename: string | undefined, index: number): string {
  const base = (filename ?? '').replace(/\.[a-z0-9]+$/i, '').replace(/[^A-Za-z0-9\s\-()[\]]/g, ' ').replace(/\s+/g, ' ').trim();
  return base === '' ? `document ${index + 1}` : base.slice(0, 200);
}

/** A file → a document block, or an image block when the file is an image. */
export function encodeFile(part: FilePart, index: number, param: string): ConverseDocumentBlock | ConverseImageBlock {
  const source = part.source;
  let located: Located;
  if (source.kind === 'base64') located = { mediaType: source.mediaType, source: { bytes: source.data } };
  else if (source.kind === 'text') located = { mediaType: 'text/plain', source: { bytes: Buffer.from(source.text, 'utf8').toString('base64') } };
  else located = locate(source.kind === 'url' ? source.url : source.fileId, part.filename, param);
  const mediaType = located.mediaType?.toLowerCase() ?? (part.filename === undefined ? undefined : mediaTypeFromName(part.filename));
  if (mediaType?.startsWith('image/') === true) return { image: { format: imageFormat(mediaType, param), source: located.source } };
  const format = mediaType === undefined ? undefined : documentFormats[mediaType];
  if (format === undefined) {
    throw refused(`Files of type ${mediaType ?? 'unknown'} cannot be sent to this model; it accepts PDF, CSV, Word, Excel, HTML, text, Markdown and images.`, param);
  }
  return { document: { format, name: documentName(part.filename, index), source: located.source } };
}
