import { describe, expect, it } from 'vitest';
import { configSchema } from './config-schema.js';

/** Each problem as `path: message`, the way a failed start prints it. */
function problems(provider: Record<string, unknown>): string[] {
  const parsed = configSchema.safeParse({ providers: { cloud: provider } });
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('cloud provider settings', () => {
  it('takes an azure provider in the v1 form, and in the classic form with its API version', () => {
    expect(problems({ type: 'azure', base_url: 'https://res.openai.azure.com/openai/v1', api_key: 'k' })).toEqual([]);
    expect(problems({ type: 'azure', base_url: 'https://res.openai.azure.com', api_version: '2025-04-01-preview' })).toEqual([]);
  });

  it('refuses the classic azure form without api_version, and an api_version on the v1 API', () => {
    expect(problems({ type: 'azure', base_url: 'https://res.openai.azure.com', api_key: 'k' })).toEqual([expect.stringMatching(/^providers\.cloud\.api_version: the classic Azure form .* needs api_version/)]);
    expect(problems({ type: 'azure', base_url: 'https://res.openai.azure.com/openai/v1', api_version: '2024-10-21' })).toEqual([
      expect.stringMatching(/^providers\.cloud\.api_version: the v1 API .* takes no api_version/),
    ]);
  });

  it('refuses an azure provider on the simulator without a key, since the simulator issues no Entra ID token', () => {
    expect(problems({ type: 'azure', base_url: 'builtin:sim' })).toEqual([expect.stringMatching(/^providers\.cloud\.api_key: an azure provider on builtin:sim needs an api_key/)]);
    expect(problems({ type: 'azure', base_url: 'builtin:sim', api_key: 'any', api_version: '2024-10-21' })).toEqual([]);
  });

  it('takes bedrock and vertex providers on the simulator without credentials, and refuses a key file for a simulated vertex', () => {
    expect(problems({ type: 'bedrock', base_url: 'builtin:sim', region: 'us-east-1' })).toEqual([]);
    expect(problems({ type: 'vertex', base_url: 'builtin:sim', project: 'p', location: 'us-east5' })).toEqual([]);
    expect(problems({ type: 'vertex', base_url: 'builtin:sim', project: 'p', location: 'us-east5', credentials_file: '/key.json' })).toEqual([
      expect.stringMatching(/^providers\.cloud\.credentials_file: a vertex provider on builtin:sim takes no credentials_file/),
    ]);
  });

  it('refuses an azure provider without its resource URL', () => {
    expect(problems({ type: 'azure', api_key: 'k' })).toEqual([expect.stringMatching(/^providers\.cloud\.base_url: an azure provider needs its resource URL/)]);
  });

  it('refuses a bedrock provider without a region, and half a key pair', () => {
    expect(problems({ type: 'bedrock' })).toContainEqual(expect.stringMatching(/^providers\.cloud\.region: a bedrock provider needs its AWS region/));
    expect(problems({ type: 'bedrock', region: 'us-east-1', access_key_id: 'AKIA' })).toContainEqual(expect.stringMatching(/^providers\.cloud\.secret_access_key: access_key_id and secret_access_key go together/));
    expect(problems({ type: 'bedrock', region: 'us-east-1', access_key_id: 'AKIA', secret_access_key: 's', api_key: 'b' })).toContainEqual(expect.stringMatching(/^providers\.cloud\.api_key: a Bedrock API key replaces/));
  });

  it('refuses a vertex provider without its project or location', () => {
    expect(problems({ type: 'vertex', location: 'us-east5' })).toContainEqual(expect.stringMatching(/^providers\.cloud\.project: a vertex provider needs its Google Cloud project/));
    expect(problems({ type: 'vertex', project: 'p' })).toContainEqual(expect.stringMatching(/^providers\.cloud\.location: a vertex provider needs its location/));
  });

  it('refuses a setting of another kind, naming the kinds that take it', () => {
    expect(problems({ type: 'openai', region: 'us-east-1' })).toEqual(['providers.cloud.region: only bedrock providers take region']);
    expect(problems({ type: 'azure', base_url: 'https://res.openai.azure.com/openai/v1', project: 'p' })).toEqual(['providers.cloud.project: only vertex providers take project']);
  });

  it('takes a bedrock provider with its region alone (the default credential chain), with keys, or with an API key', () => {
    expect(problems({ type: 'bedrock', region: 'us-east-1' })).toEqual([]);
    expect(problems({ type: 'bedrock', region: 'us-east-1', access_key_id: 'AKIA', secret_access_key: 's', session_token: 't' })).toEqual([]);
    expect(problems({ type: 'bedrock', region: 'us-east-1', api_key: 'b' })).toEqual([]);
  });

  it('takes a vertex provider with its project and location', () => {
    expect(problems({ type: 'vertex', project: 'p', location: 'global' })).toEqual([]);
    expect(problems({ type: 'vertex', project: 'p', location: 'us-east5', credentials_file: '/etc/switchyard/sa.json' })).toEqual([]);
  });
});
