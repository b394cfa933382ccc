import type { IncomingMessage } from 'node:http';
import { bodyTooLarge } from '../errors/body-too-large.js';
import { GatewayError } from '../errors/gateway-error.js';
import { checkRequestJson } from '../json/check-request-json.js';

/** Refuses anything but JSON bodies (415), before reading them. */
export function assertJsonContentType(contentType: string | undefined): void {
  // What nearly every client sends, spared the split and the case folding.
  if (contentType === 'application/json') return;
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) {
    throw new GatewayError(
      'unsupported_media_type',
      `Expected a JSON body with content-type application/json${contentType ? `, got '${contentType}'` : ''}.`,
    );
  }
}

/**
 * Reads the request body as text, refusing it (413) as soon as it is known to exceed `limit`:
 * from the declared content-length before reading anything, or while streaming otherwise.
 */
export interface RequestBody {
  readonly text: string;
  /** The bytes as received: a body passed through unchanged is sent on as these, not re-encoded. */
  readonly bytes: Buffer;
}

export function readRequestBody(incoming: IncomingMessage, limit: number): Promise<RequestBody> {
  const declared = Number(incoming.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(bodyTooLarge(limit));
  // Plain 'data' and 'end' listeners: the stream's async iterator costs more than the read itself.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limit) {
        stop();
        reject(bodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received);
      resolve({ text: bytes.toString('utf8'), bytes });
    };
    const onFailure = (error?: Error): void => {
      stop();
      reject(error ?? new GatewayError('invalid_request', 'The client closed the connection before sending the whole body.'));
    };
    const onClose = (): void => {
      if (!incoming.complete) onFailure();
    };
    const stop = (): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onFailure);
      incoming.off('close', onClose);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onFailure);
    incoming.on('close', onClose);
  });
}

/**
 * Parses the body text; it must be a JSON object, nested no deeper than the gateway walks safely,
 * with each top-level member once (see checkRequestJson). Every JSON endpoint reads its body here.
 */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  // A UTF-8 byte-order mark is legal in a file but not in JSON text; some clients send one.
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new GatewayError('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GatewayError('invalid_request', 'The request body must be a JSON object.');
  }
  checkRequestJson(json, Object.keys(value).length);
  return value as Record<string, unknown>;
}
