import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { displayPrefix, hashApiKey, mintApiKeySecret, mintKeyId } from '../../src/keys/api-key-secret.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { apiKeyRecord } from '../../src/keys/api-key-record.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway(defaultConfig({}));
});
afterAll(async () => {
  await gateway.close();
});

async function keyWith(limits: { rpm?: number; budgetNanoUsd?: bigint }): Promise<string> {
  const secret = mintApiKeySecret();
  await gateway.services.storage.keys.insert(apiKeyRecord({
    id: mintKeyId(),
    name: 'limited',
    prefix: displayPrefix(secret),
    hash: hashApiKey(secret),
    scopes: { endpoints: null, models: null },
    budgetNanoUsd: limits.budgetNanoUsd ?? null,
    rpm: limits.rpm ?? null,
    createdAt: new Date(),
  }));
  return secret;
}

const ask = (client: OpenAI) => client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hi' }] });

describe('per-key limits', () => {
  it('answers 429 with retry-after once a key has used its requests per minute', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: await keyWith({ rpm: 2 }), maxRetries: 0 });
    await ask(client);
    await ask(client);
    const refused = await ask(client).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    const retryAfter = Number((refused as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('answers 402 once a key has spent its budget, counting calls not yet written to the ledger', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: await keyWith({ budgetNanoUsd: 1n }), maxRetries: 0 });
    await ask(client);
    const refused = await ask(client).catch((error: unknown) => error);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect((refused as InstanceType<typeof OpenAI.APIError>).message).toContain('budget');
  });

  it('leaves keys without limits alone', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: await keyWith({}), maxRetries: 0 });
    for (let call = 0; call < 5; call++) await ask(client);
  });
});
