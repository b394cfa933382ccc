import type { ImageGenerationRequest } from '../../../ir/index.js';
import type { UpstreamTarget } from '../../provider-adapter.js';

/** Test support: a minimal image request and a Gemini target. */
export function imageRequest(overrides: Partial<ImageGenerationRequest> = {}): ImageGenerationRequest {
  return { prompt: 'A red circle on white', n: 1, partialImages: 0, ...overrides };
}

export function geminiTarget(model: string): UpstreamTarget {
  return { providerName: 'google', kind: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', apiKey: 'g-key', model };
}

export function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

export function jsonBody(body: string | Buffer): unknown {
  return JSON.parse(body.toString());
}
