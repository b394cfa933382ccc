import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageInput } from '../../ir/image-generation.js';
import { readMultipartForm } from '../multipart/read-multipart-form.js';

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
 * Reads an edit's multipart/form-data body (what the `openai` SDK sends): `image` (or `image[]`,
 * once per file), `mask`, and the other fields.
 */
export async function readImageForm(incoming: IncomingMessage, limitBytes: number): Promise<ImageForm> {
  const form = await readMultipartForm(incoming, limitBytes);
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(form.fields)) fields[name] = typedField(name, value);
  const images: ImageInput[] = [];
  let mask: ImageInput | undefined;
  for (const { field, file } of form.files) {
    if (field === 'image' || field === 'image[]') images.push(file);
    else if (field === 'mask') mask = file;
    else throw new GatewayError('unknown_parameter', `Unknown file field: '${field}'.`, { param: field });
  }
  return { fields, images, mask };
}
