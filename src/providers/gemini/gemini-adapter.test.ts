import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../provider-adapter.js';
import { geminiAdapter } from './index.js';
import { makeRequest, replayChunks } from './gemini.test-support.js';
import { fixtureChunks, readJsonFixture } from '../../../test/support/fixtures.js';

const target: UpstreamTarget = {
  providerName: 'google',
  kind: 'gemini',
  baseUrl: 'https://generativelanguage.googleapis.com',
  apiKey: 'k',
  model: 'gemini-2.5-flash',
};

describe('geminiAdapter', () => {
  it('is the gemini kind and passes no client format through', () => {
    expect(geminiAdapter.kind).toBe('gemini');
    expect(geminiAdapter.text.nativeFormats).toEqual([]);
  });

  it('answers the generateContent URL for passthrough, which Gemini never uses', () => {
    expect(geminiAdapter.text.passthroughUrl('chat', target, false)).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
    );
  });

  it('gives the same headers for upstream calls as for built requests', () => {
    const built = geminiAdapter.text.buildRequest(makeRequest(), target, { 'anthropic-beta': 'x' });
    expect(geminiAdapter.upstreamHeaders(target, {})).toEqual(built.headers);
    expect(built.headers['anthropic-beta']).toBeUndefined();
    expect(JSON.parse(built.body)).toEqual({ contents: [{ role: 'user', parts: [{ text: 'How many r are in strawberry?' }] }] });
  });

  it('wires the response, stream and error decoders', () => {
    expect(geminiAdapter.text.decodeResponse(readJsonFixture('google/generate-content/google-text.json'), makeRequest()).usage.output).toBe(28);
    const events = replayChunks(geminiAdapter.text.createStreamDecoder(makeRequest()), fixtureChunks('google/generate-content/google-text.chunks.txt'));
    expect(events.at(-1)?.type).toBe('response-end');
    expect(geminiAdapter.decodeError(429, '{}', {}).code).toBe('upstream_rate_limited');
  });
});
