import { randomBytes } from 'node:crypto';

/** One part of a form: a text field, or a file with its name and media type. */
export type FormPart =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly file: { readonly bytes: Uint8Array; readonly filename: string; readonly mediaType: string } };

export interface EncodedForm {
  readonly body: Buffer;
  readonly contentType: string;
}

/**
 * A `multipart/form-data` body built in memory: the images of an edit are already held whole, so
 * a Buffer with a known length is simpler than a stream and lets the upstream call be retried.
 */
export function encodeMultipartForm(parts: readonly FormPart[]): EncodedForm {
  const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n${partHeaders(part)}\r\n`, 'utf8'));
    chunks.push('file' in part ? Buffer.from(part.file.bytes) : Buffer.from(part.value, 'utf8'));
    chunks.push(Buffer.from('\r\n', 'utf8'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function partHeaders(part: FormPart): string {
  if (!('file' in part)) return `Content-Disposition: form-data; name="${quoted(part.name)}"\r\n`;
  return (
    `Content-Disposition: form-data; name="${quoted(part.name)}"; filename="${quoted(part.file.filename)}"\r\n` +
    `Content-Type: ${part.file.mediaType.replace(/[\r\n]/g, '')}\r\n`
  );
}

/** Quotes and line breaks escaped the way browsers do (WHATWG form encoding), so no name can end the header early. */
function quoted(text: string): string {
  return text.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}
