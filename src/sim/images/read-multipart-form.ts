import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';

export interface FormFile {
  /** The form field's name as sent: `image`, `image[]`, `mask`. */
  readonly field: string;
  readonly filename: string;
  readonly mimeType: string;
  readonly data: Buffer;
}

export type FormResult =
  | { readonly kind: 'ok'; readonly fields: Record<string, string>; readonly files: readonly FormFile[] }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'too-large' };

/** As for JSON bodies: generous, since the simulator is a test double and not a guard. */
const maxFormBytes = 64 * 1024 * 1024;

/** Reads a whole multipart/form-data body: text fields (the last of a repeated name wins) and files. */
export async function readMultipartForm(request: IncomingMessage): Promise<FormResult> {
  const contentType = request.headers['content-type'] ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    request.resume();
    return { kind: 'invalid', message: `Invalid Content-Type header (${contentType || 'none'}), expected multipart/form-data.` };
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: request.headers, limits: { fileSize: maxFormBytes, fieldSize: maxFormBytes } });
  } catch (error) {
    request.resume();
    return { kind: 'invalid', message: error instanceof Error ? error.message : 'Unreadable multipart form.' };
  }
  return new Promise((resolve) => {
    const fields: Record<string, string> = {};
    const files: FormFile[] = [];
    let size = 0;
    let tooLarge = false;
    parser.on('field', (name, value) => {
      size += value.length;
      fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxFormBytes) tooLarge = true;
        else chunks.push(chunk);
      });
      stream.on('limit', () => {
        tooLarge = true;
      });
      stream.on('end', () => {
        files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) });
      });
    });
    parser.on('error', (error: unknown) => {
      // Keep draining so the error answer can still be written on the same socket.
      request.unpipe(parser);
      request.resume();
      resolve({ kind: 'invalid', message: `The multipart form could not be read: ${error instanceof Error ? error.message : 'unknown error'}.` });
    });
    parser.on('close', () => {
      resolve(tooLarge || size > maxFormBytes ? { kind: 'too-large' } : { kind: 'ok', fields, files });
    });
    request.pipe(parser);
  });
}
