import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { bodyTooLarge } from '../../errors/body-too-large.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageInput } from '../../ir/image-generation.js';

/** The fields and files of a multipart Images request, as sent. */
export interface ImageForm {
  readonly fields: Record<string, unknown>;
  readonly images: ImageInput[];
  readonly mask: ImageInput | undefined;
}

// Form fields arrive as text; these are numbers or booleans in the JSON form of the request.
const numericFields = new Set(['n', 'output_compression', 'partial_images']);
const booleanFields = new Set(['stream']);

function typedField(name: string, value: string): unknown {
  if (numericFields.has(name) && /^-?\d+$/.test(value)) return Number(value);
  if (booleanFields.has(name) && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * Reads a multipart/form-data body (what the `openai` SDK sends for edits): `image` (or
 * `image[]`, once per file), `mask`, and the other fields. The whole body is held to
 * `limitBytes` (413 beyond it), as a JSON body is.
 */
export function readImageForm(incoming: IncomingMessage, limitBytes: number): Promise<ImageForm> {
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
    const fields: Record<string, unknown> = {};
    const images: ImageInput[] = [];
    let mask: ImageInput | undefined;
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
      fields[name] = typedField(name, value);
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(bodyTooLarge(limitBytes)));
      stream.on('end', () => {
        const input: ImageInput = { bytes: Buffer.concat(chunks), mediaType: info.mimeType, filename: info.filename ?? name };
        if (name === 'image' || name === 'image[]') images.push(input);
        else if (name === 'mask') mask = input;
        else fail(new GatewayError('unknown_parameter', `Unknown file field: '${name}'.`, { param: name }));
      });
    });
    parser.on('error', (error: Error) => fail(new GatewayError('invalid_request', `The multipart body cannot be read: ${error.message}.`)));
    parser.on('close', () => {
      if (!failed) resolve({ fields, images, mask });
    });
    incoming.pipe(parser);
  });
}
