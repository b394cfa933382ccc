import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../../provider-adapter.js';
import { azureCall } from './azure-call.js';
import { azureUrl } from './azure-url.js';

const v1: UpstreamTarget = { providerName: 'a', kind: 'azure', baseUrl: 'https://res.openai.azure.com/openai/v1', model: 'gpt-4o', apiKey: 'k', azure: {} };
const classic: UpstreamTarget = { providerName: 'a', kind: 'azure', baseUrl: 'https://res.openai.azure.com', model: 'my gpt', apiKey: 'k', azure: { apiVersion: '2025-04-01-preview' } };

describe('Azure OpenAI addresses', () => {
  it('keeps OpenAI paths under the v1 root', () => {
    expect(azureUrl(v1, 'chat/completions')).toBe('https://res.openai.azure.com/openai/v1/chat/completions');
    expect(azureUrl(v1, 'responses')).toBe('https://res.openai.azure.com/openai/v1/responses');
  });

  it('puts the deployment in the path and the API version in the query on the classic form, except for Responses', () => {
    expect(azureUrl(classic, 'chat/completions')).toBe('https://res.openai.azure.com/openai/deployments/my%20gpt/chat/completions?api-version=2025-04-01-preview');
    expect(azureUrl(classic, 'images/generations')).toBe('https://res.openai.azure.com/openai/deployments/my%20gpt/images/generations?api-version=2025-04-01-preview');
    expect(azureUrl(classic, 'responses')).toBe('https://res.openai.azure.com/openai/responses?api-version=2025-04-01-preview');
  });

  it("sends the key as api-key instead of OpenAI's bearer, keeping an operator's own authorization header", () => {
    const call = { url: `${classic.baseUrl}/chat/completions`, headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: '{}' };
    expect(azureCall(call, classic).headers).toEqual({ 'content-type': 'application/json', 'api-key': 'k' });
    expect(azureCall({ ...call, headers: { authorization: 'Basic gateway-proxy' } }, classic).headers).toEqual({ 'api-key': 'k', authorization: 'Basic gateway-proxy' });
    expect(azureCall(call, { ...classic, apiKey: undefined }).headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer k' });
  });
});
