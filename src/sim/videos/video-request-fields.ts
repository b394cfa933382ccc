import type { IncomingMessage } from 'node:http';
import type { JsonRecord } from '../../json/json-value.js';
import { readMultipartForm } from '../images/read-multipart-form.js';
import { readJsonBody } from '../read-json-body.js';

/** A submit's fields as text, from a multipart form (as the SDK sends) or JSON. */
export type FieldsResult = { readonly kind: 'ok'; readonly fields: Readonly<Record<string, unknown>> } | { readonly kind: 'invalid'; readonly status: number; readonly message: string };

export async function readVideoFields(request: IncomingMessage): Promise<FieldsResult> {
  if ((request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
    const form = await readMultipartForm(request);
    if (form.kind === 'too-large') return { kind: 'invalid', status: 413, message: 'The request body is too large.' };
    if (form.kind === 'invalid') return { kind: 'invalid', status: 400, message: form.message };
    const fields: Record<string, unknown> = { ...form.fields };
    for (const file of form.files) fields[file.field] = file.data;
    return { kind: 'ok', fields };
  }
  const body = await readJsonBody(request);
  if (body.kind === 'too-large') return { kind: 'invalid', status: 413, message: 'The request body is too large.' };
  if (body.kind === 'invalid') return { kind: 'invalid', status: 400, message: body.message };
  return { kind: 'ok', fields: body.body satisfies JsonRecord };
}
