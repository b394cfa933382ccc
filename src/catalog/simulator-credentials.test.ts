import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/config-schema.js';
import { ModelCatalog } from './model-catalog.js';
import { simulatorCredentials } from './simulator-credentials.js';

function targetOf(provider: Record<string, unknown>) {
  const config = configSchema.parse({ providers: { cloud: provider }, models: [{ id: 'm', routes: [{ provider: 'cloud', model: 'x' }] }] });
  return new ModelCatalog(config, { simulatorUrl: 'http://127.0.0.1:4010' }).find('m')?.routes[0]?.target;
}

describe('cloud providers on the built-in simulator', () => {
  it('sign Bedrock calls with the simulator key pair when the config names no credential', () => {
    expect(targetOf({ type: 'bedrock', base_url: 'builtin:sim', region: 'eu-west-1' })).toMatchObject({
      baseUrl: 'http://127.0.0.1:4010',
      bedrock: { region: 'eu-west-1', ...simulatorCredentials.bedrock },
    });
  });

  it('keep a configured key pair or Bedrock API key', () => {
    expect(targetOf({ type: 'bedrock', base_url: 'builtin:sim', region: 'us-east-1', access_key_id: 'AKIAOWN', secret_access_key: 'own' })?.bedrock).toEqual({ region: 'us-east-1', accessKeyId: 'AKIAOWN', secretAccessKey: 'own' });
    const keyed = targetOf({ type: 'bedrock', base_url: 'builtin:sim', region: 'us-east-1', api_key: 'bedrock-key' });
    expect(keyed).toMatchObject({ apiKey: 'bedrock-key', bedrock: { region: 'us-east-1' } });
    expect(keyed?.bedrock?.accessKeyId).toBeUndefined();
  });

  it('give a Vertex provider the simulator token instead of Google credentials', () => {
    expect(targetOf({ type: 'vertex', base_url: 'builtin:sim', project: 'p', location: 'us-east5' })?.vertex).toEqual({ project: 'p', location: 'us-east5', accessToken: simulatorCredentials.vertexAccessToken });
  });

  it('give a provider elsewhere no such credential', () => {
    expect(targetOf({ type: 'bedrock', base_url: 'http://127.0.0.1:9', region: 'us-east-1' })?.bedrock).toEqual({ region: 'us-east-1' });
    expect(targetOf({ type: 'vertex', base_url: 'http://127.0.0.1:9', project: 'p', location: 'us-east5' })?.vertex).toEqual({ project: 'p', location: 'us-east5' });
  });
});
