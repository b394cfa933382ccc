import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { signBedrockCall } from './sign-request.js';

// The AWS default chain caches what it finds for the whole process, so a chain that finds nothing
// is tried in a test file of its own: no keys in the environment, no profile files, no instance role.
const chainVariables = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_ROLE_ARN', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI', 'AWS_CONTAINER_CREDENTIALS_FULL_URI'];
const saved = new Map<string, string | undefined>();
let empty: string;

beforeAll(() => {
  empty = mkdtempSync(path.join(tmpdir(), 'switchyard-no-aws-'));
  const set = { AWS_EC2_METADATA_DISABLED: 'true', AWS_SHARED_CREDENTIALS_FILE: path.join(empty, 'credentials'), AWS_CONFIG_FILE: path.join(empty, 'config') };
  for (const name of [...chainVariables, ...Object.keys(set)]) saved.set(name, process.env[name]);
  for (const name of chainVariables) delete process.env[name];
  Object.assign(process.env, set);
});

afterAll(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(empty, { recursive: true, force: true });
});

it('fails a call before sending it when the default chain finds no AWS credentials, with a message naming none of its places', async () => {
  const failure = await signBedrockCall({ method: 'POST', url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke', headers: {}, body: '{}' }, { region: 'us-east-1' }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(GatewayError);
  expect(failure).toMatchObject({ code: 'upstream_error', status: 502, message: 'The gateway could not get AWS credentials to sign the call to its Bedrock upstream.' });
}, 20_000);
