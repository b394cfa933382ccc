import busboy from 'busboy';
import type { ImageGenerationRequest } from '../../../ir/index.js';
import type { UpstreamTarget } from '../../provider-adapter.js';

/** Test support: a minimal request and target, and a multipart body read back the way a server reads it. */
export function imageRequest(overrides: Partial<ImageGenerationRequest> = {}): ImageGenerationRequest {
  return { prompt: 'A lighthouse at dawn', n: 1, partialImages: 0, ...overrides };
}

export function imageTarget(overrides: Partial<UpstreamTarget> = {}): UpstreamTarget {
  return { providerName: 'openai', kind: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-test', model: 'gpt-image-1', ...overrides };
}

export interface ParsedPart {
  readonly name: string;
  readonly value?: string;
  readonly filename?: string;
  readonly mediaType?: string;
  bytes?: Buffer;
}

export function parseMultipart(body: Buffer, contentType: string): Promise<ParsedPart[]> {
  return new Promise((resolve, reject) => {
    const parts: ParsedPart[] = [];
    const parser = busboy({ headers: { 'content-type': contentType } });
    parser.on('field', (name, value) => parts.push({ name, value }));
    parser.on('file', (name, stream, info) => {
      // Pushed now so the parts keep the body's order; the bytes arrive later.
      const part: ParsedPart = { name, filename: info.filename, mediaType: info.mimeType };
      parts.push(part);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        part.bytes = Buffer.concat(chunks);
      });
    });
    parser.on('close', () => resolve(parts));
    parser.on('error', reject);
    parser.end(body);
  });
}
