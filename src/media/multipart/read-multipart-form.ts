import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { bodyTooLarge } from '../../errors/body-too-large.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageInput } from '../../ir/image-generation.js';

/** A file part, by the field name it came under. */
export interface FormFile {
  readonly field: string;
  readonly file: ImageInput;
}

/** A multipart/form-data body: its text fields (later values of a name win) and files, in order. */
export interface MultipartForm {
  readonly fields: Record<string, string>;
  readonly files: readonly FormFile[];
}

/** Whether a content type announces a multipart/form-data body. */
export function isMultipart(contentType: string | undefined): boolean {
  return (contentType ?? '').toLowerCase().startsWith('multipart/form-data');
}

/**
 * Reads a multipart/form-data body, as the `openai` SDK sends files. The whole body is held to
 * `limitBytes` (413 beyond it, from the declared length before reading when there is one), as a
 * JSON body is.
 */
export function readMultipartForm(incoming: IncomingMessage, limitBytes: number): Promise<MultipartForm> {
  const declared = Number(incoming.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) return Promise.reject(bodyTooLarge(limitBytes));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: incoming.headers, limits: { fileSize: limitBytes, fieldSize: limitBytes } });
    } catch (error) {
      reject(new GatewayError('invalid_request', `The multipart body cannot be read: ${(error as Error).message}.`));
      return;
    }
    const fields: Record<string, string> = {};
    const files: FormFile[] = [];
    let received = 0;
    let failed = false;
    const fail = (error: GatewayError): void => {
      if (failed) return;
      failed = true;
      incoming.unpipe(parser);
      incoming.resume();
      reject(error);
    };
    incoming.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) fail(bodyTooLarge(limitBytes));
    });
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(bodyTooLarge(limitBytes)));
      stream.on('end', () => {
        files.push({ field: name, file: { bytes: Buffer.concat(chunks), mediaType: info.mimeType, filename: info.filename ?? name } });
      });
    });
    parser.on('error', (error: Error) => fail(new GatewayError('invalid_request', `The multipart body cannot be read: ${error.message}.`)));
    parser.on('close', () => {
      if (!failed) resolve({ fields, files });
    });
    incoming.pipe(parser);
  });
}
