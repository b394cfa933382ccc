import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import type { Storage } from '../../src/storage/ports.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { mintApiKeySecret } from '../../src/keys/api-key-secret.js';
import { insertApiKey } from '../support/insert-api-key.js';

/**
 * Discovery: `GET /models` and `GET /models/{id}` (with and without `/v1`) in the OpenAI shape,
 * filtered by output modality and by what can actually be called, public by default.
 */

let upstream: ScriptedUpstream;

/** The built-in simulator models plus image and video models, and models nobody can call. */
function discoveryConfig(server: Record<string, unknown> = {}): Record<string, unknown> {
  const base = defaultConfig({}) as { providers: Record<string, unknown>; models: unknown[] };
  return {
    server,
    providers: {
      ...base.providers,
      // A hosted provider with a credential (pointed at a fake so nothing could leave the machine).
      media: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'upstream-media-secret' },
      // A hosted provider without any credential: its models cannot be called.
      uncredentialed: { type: 'openai' },
    },
    models: [
      ...base.models,
      { id: 'vendor/slashed', aliases: ['slashed-alias'], owned_by: 'vendor', routes: [{ provider: 'sim-openai', model: 'sim-gpt' }] },
      { id: 'media-image', output_modality: 'image', routes: [{ provider: 'media', model: 'gpt-image-1' }] },
      { id: 'media-video', output_modality: 'video', routes: [{ provider: 'media', model: 'sora-2' }] },
      { id: 'locked-text', routes: [{ provider: 'uncredentialed', model: 'gpt-4.1' }] },
      { id: 'locked-image', output_modality: 'image', routes: [{ provider: 'uncredentialed', model: 'gpt-image-1' }] },
    ],
  };
}

const textIds = ['sim-claude', 'sim-gemini', 'sim-gpt', 'vendor/slashed'];

let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  gateway = await startTestGateway(discoveryConfig());
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

interface ModelList {
  readonly object: string;
  readonly data: readonly { id: string; object: string; created: number; owned_by: string }[];
}

async function listModels(target: TestGateway, path: string, headers: Record<string, string> = {}): Promise<{ response: Response; body: ModelList }> {
  const response = await fetch(`${target.url}${path}`, { headers });
  return { response, body: (await response.json()) as ModelList };
}

function sortedIds(list: ModelList): string[] {
  return list.data.map((model) => model.id).sort();
}

async function expectError(response: Response, status: number, code: string, param: string | null, type = 'invalid_request_error'): Promise<string> {
  expect(response.status).toBe(status);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_[0-9a-f]{24}$/);
  const body = (await response.json()) as { error: { message: string } };
  expect(body).toEqual({ error: { message: expect.any(String), type, param, code, request_id: requestId } });
  return body.error.message;
}

function insertKey(storage: Storage, models: string[] | null = null): Promise<string> {
  return insertApiKey(storage, 'discovery', { endpoints: null, models });
}

describe.each(['/v1', ''])('GET %s/models', (prefix) => {
  it('answers the OpenAI list shape with the callable text models only', async () => {
    const { response, body } = await listModels(gateway, `${prefix}/models`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(body.object).toBe('list');
    expect(sortedIds(body)).toEqual(textIds);
    for (const model of body.data) {
      expect(model).toMatchObject({ id: expect.any(String), object: 'model', created: expect.any(Number), owned_by: expect.any(String) });
      expect(Number.isInteger(model.created)).toBe(true);
    }
    expect(body.data.find((model) => model.id === 'sim-gpt')?.owned_by).toBe('switchyard-sim');
    expect(body.data.find((model) => model.id === 'vendor/slashed')?.owned_by).toBe('vendor');
  });

  it.each([
    ['text', textIds],
    ['image', ['media-image', 'sim-image']],
    ['video', ['media-video', 'sim-video']],
    ['all', [...textIds, 'media-image', 'media-video', 'sim-image', 'sim-video'].sort()],
    ['image,video', ['media-image', 'media-video', 'sim-image', 'sim-video']],
  ])('output_modalities=%s selects those models', async (modalities, expected) => {
    const { response, body } = await listModels(gateway, `${prefix}/models?output_modalities=${modalities}`);
    expect(response.status).toBe(200);
    expect(sortedIds(body)).toEqual(expected);
  });

  it('never lists a model whose provider has no credentials', async () => {
    const { body } = await listModels(gateway, `${prefix}/models?output_modalities=all`);
    expect(sortedIds(body)).not.toContain('locked-text');
    expect(sortedIds(body)).not.toContain('locked-image');
  });

  it.each(['bogus', 'text,bogus', 'audio', 'TEXT'])('output_modalities=%s is a 400 naming the allowed values', async (value) => {
    const response = await fetch(`${gateway.url}${prefix}/models?output_modalities=${value}`);
    const message = await expectError(response, 400, 'invalid_field', 'output_modalities');
    for (const allowed of ['text', 'image', 'video', 'all']) expect(message).toContain(allowed);
  });

  it('retrieves a model by id and by alias', async () => {
    const byId = await fetch(`${gateway.url}${prefix}/models/sim-gpt`);
    expect(byId.status).toBe(200);
    expect(byId.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await byId.json()).toMatchObject({ id: 'sim-gpt', object: 'model', owned_by: 'switchyard-sim' });
    const byAlias = await fetch(`${gateway.url}${prefix}/models/sim`);
    expect(byAlias.status).toBe(200);
    expect(await byAlias.json()).toMatchObject({ id: 'sim-gpt', object: 'model' });
  });

  it('retrieves an image model by id', async () => {
    const response = await fetch(`${gateway.url}${prefix}/models/media-image`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 'media-image', object: 'model' });
  });

  it('retrieves a model whose id holds a slash, written plainly or escaped', async () => {
    for (const path of ['vendor/slashed', 'vendor%2Fslashed']) {
      const response = await fetch(`${gateway.url}${prefix}/models/${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: 'vendor/slashed' });
    }
  });

  it.each(['no-such-model', 'locked-text', 'odd%25name', '%E0%A4%A'])('answers 404 model_not_found for %s', async (name) => {
    const response = await fetch(`${gateway.url}${prefix}/models/${name}`);
    await expectError(response, 404, 'model_not_found', 'model');
  });

  it('answers POST with 405 and an allow header', async () => {
    const response = await fetch(`${gateway.url}${prefix}/models`, { method: 'POST' });
    expect(response.headers.get('allow')).toBe('GET');
    await expectError(response, 405, 'method_not_allowed', null);
  });
});

describe('the official client', () => {
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused-open-access', maxRetries: 0 });
  });

  it('lists models with models.list()', async () => {
    const page = await client.models.list();
    expect(page.data.map((model) => model.id).sort()).toEqual(textIds);
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids.sort()).toEqual(textIds);
  });

  it('passes output_modalities through models.list() query options', async () => {
    const page = await client.models.list({ query: { output_modalities: 'image' } });
    expect(page.data.map((model) => model.id).sort()).toEqual(['media-image', 'sim-image']);
  });

  it('retrieves with models.retrieve(), including an id with a slash', async () => {
    const model = await client.models.retrieve('sim-claude');
    expect(model).toMatchObject({ id: 'sim-claude', object: 'model', owned_by: 'switchyard-sim' });
    expect((await client.models.retrieve('vendor/slashed')).id).toBe('vendor/slashed');
  });

  it('gets a NotFoundError for an unknown id', async () => {
    const error = await client.models.retrieve('ghost-model').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const apiError = error as APIError;
    expect(apiError.code).toBe('model_not_found');
    expect(apiError.param).toBe('model');
    expect(apiError.requestID).toMatch(/^req_/);
  });
});

describe('access to discovery', () => {
  it('stays public once keys exist, and a key narrows the list to its models', async () => {
    const keyed = await startTestGateway(discoveryConfig());
    try {
      const secret = await insertKey(keyed.services.storage, ['sim-gemini']);
      const anonymous = await listModels(keyed, '/v1/models');
      expect(anonymous.response.status).toBe(200);
      expect(sortedIds(anonymous.body)).toEqual(textIds);
      expect((await fetch(`${keyed.url}/models/sim-gpt`)).status).toBe(200);
      const withKey = await listModels(keyed, '/v1/models', { authorization: `Bearer ${secret}` });
      expect(sortedIds(withKey.body)).toEqual(['sim-gemini']);
      // Chat is not public: the same gateway refuses a keyless call.
      const chat = await fetch(`${keyed.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(chat.status).toBe(401);
    } finally {
      await keyed.close();
    }
  });

  it('requires a key with discovery_requires_key: true', async () => {
    const guarded = await startTestGateway(discoveryConfig({ discovery_requires_key: true }));
    try {
      const secret = await insertKey(guarded.services.storage);
      for (const path of ['/v1/models', '/models', '/v1/models/sim-gpt', '/models/sim-gpt']) {
        await expectError(await fetch(`${guarded.url}${path}`), 401, 'invalid_api_key', null, 'authentication_error');
      }
      const client = new OpenAI({ baseURL: `${guarded.url}/v1`, apiKey: secret, maxRetries: 0 });
      expect((await client.models.list()).data.map((model) => model.id).sort()).toEqual(textIds);
      expect((await client.models.retrieve('sim-gpt')).id).toBe('sim-gpt');
      const wrongKey = new OpenAI({ baseURL: `${guarded.url}/v1`, apiKey: mintApiKeySecret(), maxRetries: 0 });
      await expect(wrongKey.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    } finally {
      await guarded.close();
    }
  });

  it('never reached an upstream while answering discovery', () => {
    expect(upstream.requests).toHaveLength(0);
  });
});
