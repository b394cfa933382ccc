import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../provider-adapter.js';
import { vertexClaudeAdapter } from './vertex-claude-adapter.js';

const target: UpstreamTarget = {
  providerName: 'vertex',
  kind: 'vertex',
  baseUrl: 'https://us-east5-aiplatform.googleapis.com',
  model: 'claude-sonnet-4-5@20250929',
  vertex: { project: 'my-project', location: 'us-east5' },
};
const text = vertexClaudeAdapter.text!;

describe('Claude on Vertex AI', () => {
  it('moves the model to the URL and sends the version Vertex documents in place of the client\'s', () => {
    const prepared = JSON.stringify({ model: 'claude-sonnet-4-5@20250929', anthropic_version: '2023-06-01', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], stream: true });
    const body = JSON.parse(text.passthroughBody!('messages', prepared, {}, target, {})) as Record<string, unknown>;
    expect(body).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], stream: true });
  });

  it('keeps the model in a count body and adds the version', () => {
    const body = JSON.parse(vertexClaudeAdapter.tokenCounting!.countBody!(JSON.stringify({ model: 'claude-sonnet-4-5@20250929', messages: [] }), target, {})) as Record<string, unknown>;
    expect(body).toEqual({ anthropic_version: 'vertex-2023-10-16', model: 'claude-sonnet-4-5@20250929', messages: [] });
  });

  it('forwards anthropic-beta as a header and no anthropic-version header', () => {
    const headers = vertexClaudeAdapter.upstreamHeaders(target, { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'context-1m-2025-08-07' });
    expect(headers).toEqual({ 'content-type': 'application/json', 'anthropic-beta': 'context-1m-2025-08-07' });
  });

  it('reads both of Vertex\'s error shapes: Claude\'s own, and Google\'s from the platform', () => {
    const claude = vertexClaudeAdapter.decodeError(529, JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), {});
    expect(claude).toMatchObject({ code: 'upstream_unavailable', upstreamType: 'overloaded_error' });
    const quota = vertexClaudeAdapter.decodeError(429, JSON.stringify({ error: { code: 429, message: 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model', status: 'RESOURCE_EXHAUSTED' } }), {});
    expect(quota).toMatchObject({ code: 'upstream_rate_limited', upstreamType: 'RESOURCE_EXHAUSTED' });
    const auth = vertexClaudeAdapter.decodeError(401, JSON.stringify({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }), {});
    expect(auth).toMatchObject({ code: 'upstream_error', status: 502 });
  });

  it('refuses to pass a chat or Responses body through', () => {
    expect(() => text.passthroughUrl('chat', target, false)).toThrow();
  });
});
