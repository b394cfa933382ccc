import type { IncomingMessage } from 'node:http';
import type { JsonRecord } from '../json/json-value.js';
import { isRecord } from '../json/json-value.js';

export type BodyResult =
  | { readonly kind: 'ok'; readonly body: JsonRecord }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'too-large' };

/** Generous: coding agents send long conversations, and the simulator is a test double, not a guard. */
const maxBodyBytes = 64 * 1024 * 1024;

export async function readJsonBody(request: IncomingMessage): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Keep draining past the limit: stopping early would tear down the socket before the 413 is sent.
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size <= maxBodyBytes) chunks.push(buffer);
  }
  if (size > maxBodyBytes) return { kind: 'too-large' };
  const text = Buffer.concat(chunks).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'unparseable';
    return { kind: 'invalid', message: `The request body is not valid JSON: ${detail}` };
  }
  if (!isRecord(parsed)) return { kind: 'invalid', message: 'The request body must be a JSON object.' };
  return { kind: 'ok', body: parsed };
}
