import Anthropic from '@anthropic-ai/sdk';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { mintApiKeySecret } from '../../src/keys/api-key-secret.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * Open access on a fresh install ends the moment the first key exists, even when that key is
 * created by another process: the gateway runs with no keys on loopback, `switchyard keys create`
 * writes to the same database, and the very next call without a valid key is refused, in every
 * client family and in that client's own error shape.
 */

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');

let workDirectory: string;
let databaseUrl: string;
let gateway: TestGateway;

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) throw new Error('run `npm run build` first (npm test does)');
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-open-access-'));
  databaseUrl = `sqlite:${path.join(workDirectory, 'gateway.db')}`;
  gateway = await startTestGateway({ ...defaultConfig({}), database: { url: databaseUrl } });
});
afterAll(async () => {
  await gateway?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

/** Sends the SDK's request with neither key header: the SDKs refuse to be built without a key. */
async function withoutKey(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  headers.delete('authorization');
  headers.delete('x-api-key');
  return fetch(input, { ...init, headers });
}

/** `undefined` means no key at all. */
type Presented = string | undefined;

function openaiClient(key: Presented): OpenAI {
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key ?? 'stripped', maxRetries: 0, ...(key === undefined ? { fetch: withoutKey } : {}) });
}

function anthropicClient(key: Presented): Anthropic {
  return new Anthropic({ baseURL: gateway.url, apiKey: key ?? 'stripped', maxRetries: 0, ...(key === undefined ? { fetch: withoutKey } : {}) });
}

interface Family {
  readonly name: string;
  /** One call; resolves to the answer's text. */
  call(key: Presented, prompt: string): Promise<string>;
  /** Checks that a call was refused with 401 in this family's own error shape. */
  expectRefused(call: Promise<string>): Promise<void>;
}

async function expectOpenAIRefusal(call: Promise<string>): Promise<void> {
  const error = await call.then(() => undefined, (failure: unknown) => failure);
  expect(error).toBeInstanceOf(OpenAI.APIError);
  const apiError = error as InstanceType<typeof OpenAI.APIError>;
  expect(apiError.status).toBe(401);
  expect(apiError.type).toBe('authentication_error');
  expect(apiError.code).toBe('invalid_api_key');
}

const families: readonly Family[] = [
  {
    name: 'chat completions',
    call: async (key, prompt) => {
      const completion = await openaiClient(key).chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: prompt }] });
      return completion.choices[0]?.message.content ?? '';
    },
    expectRefused: expectOpenAIRefusal,
  },
  {
    name: 'responses',
    call: async (key, prompt) => (await openaiClient(key).responses.create({ model: 'sim-claude', input: prompt })).output_text,
    expectRefused: expectOpenAIRefusal,
  },
  {
    name: 'messages',
    call: async (key, prompt) => {
      const message = await anthropicClient(key).messages.create({ model: 'sim-claude', max_tokens: 256, messages: [{ role: 'user', content: prompt }] });
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    },
    expectRefused: async (call) => {
      const error = await call.then(() => undefined, (failure: unknown) => failure);
      expect(error).toBeInstanceOf(Anthropic.APIError);
      const apiError = error as InstanceType<typeof Anthropic.APIError>;
      expect(apiError.status).toBe(401);
      expect(apiError.error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    },
  },
];

describe('open access on a fresh install', () => {
  let createdKey: string;

  it('lets keyless calls and placeholder keys through in every family while no key exists', async () => {
    for (const family of families) {
      expect(await family.call(undefined, `keyless ${family.name}`)).toContain(`keyless ${family.name}`);
      expect(await family.call('any', `placeholder ${family.name}`)).toContain(`placeholder ${family.name}`);
    }
    expect(await families[0]!.call('anything-until-you-create-keys', 'quick start')).toContain('quick start');
  });

  it('refuses a key shaped like ours that does not verify, even while no key exists', async () => {
    for (const family of families) await family.expectRefused(family.call(mintApiKeySecret(), 'wrong key'));
    await families[0]!.expectRefused(families[0]!.call('sy-mistyped', 'wrong key'));
  });

  it('ends on the very next call after `switchyard keys create` in another process', async () => {
    const { stdout } = await run(process.execPath, [bin, 'keys', 'create', '--name', 'first', '--json'], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      cwd: workDirectory,
    });
    createdKey = (JSON.parse(stdout) as { key: string }).key;
    expect(createdKey).toMatch(/^sy-/);

    // No waiting: each of these is the first call after the key was created, in its family.
    for (const family of families) await family.expectRefused(family.call(undefined, 'keyless after the first key'));
    for (const family of families) {
      await family.expectRefused(family.call(mintApiKeySecret(), 'wrong key after the first key'));
      await family.expectRefused(family.call('any', 'placeholder after the first key'));
    }
  });

  it('serves the new key in every family', async () => {
    for (const family of families) expect(await family.call(createdKey, `keyed ${family.name}`)).toContain(`keyed ${family.name}`);
  });
});
