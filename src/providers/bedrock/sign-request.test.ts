import { describe, expect, it } from 'vitest';
import { verifySigV4 } from '../../../test/support/fake-bedrock/verify-sigv4.js';
import { signBedrockCall } from './sign-request.js';

const keys = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const at = new Date('2026-03-01T12:00:00Z');
const body = '{"anthropic_version":"bedrock-2023-05-31","max_tokens":5,"messages":[]}';
const url = 'https://bedrock-runtime.us-west-2.amazonaws.com/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/invoke';

function asReceived(headers: Record<string, string>) {
  return { method: 'POST', target: new URL(url).pathname, headers: { host: 'bedrock-runtime.us-west-2.amazonaws.com', ...headers }, body: Buffer.from(body) };
}

describe('signing Bedrock calls', () => {
  it("signs for service bedrock in the provider's region, over the call as sent", async () => {
    const headers = { 'content-type': 'application/json' };
    const added = await signBedrockCall({ method: 'POST', url, headers, body }, { region: 'us-west-2', ...keys }, at);
    expect(added['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20260301\/us-west-2\/bedrock\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
    expect(added['x-amz-date']).toBe('20260301T120000Z');
    expect(verifySigV4(asReceived({ ...headers, ...added }), keys, 'us-west-2', 'bedrock', at)).toEqual({ ok: true });
    expect(verifySigV4(asReceived({ ...headers, ...added }), { ...keys, secretAccessKey: 'other' }, 'us-west-2', 'bedrock', at)).toMatchObject({ ok: false, errorType: 'InvalidSignatureException' });
    expect(JSON.stringify(added)).not.toContain(keys.secretAccessKey);
  });

  it('sends a session token in its own header, under the signature', async () => {
    const added = await signBedrockCall({ method: 'POST', url, headers: {}, body }, { region: 'us-west-2', ...keys, sessionToken: 'session-token-1' }, at);
    expect(added['x-amz-security-token']).toBe('session-token-1');
    expect(added['authorization']).toContain('x-amz-security-token');
    expect(verifySigV4(asReceived(added), { ...keys, sessionToken: 'session-token-1' }, 'us-west-2', 'bedrock', at)).toEqual({ ok: true });
  });

  it('sends a Bedrock API key as a bearer token and signs nothing', async () => {
    expect(await signBedrockCall({ method: 'POST', url, headers: {}, body }, { region: 'us-west-2', apiKey: 'ABSK-key' })).toEqual({ authorization: 'Bearer ABSK-key' });
  });

  it("uses the AWS SDK's default credential chain when no keys are configured", async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = 'AKIAFROMENVIRONMENT1';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret-from-the-environment';
    try {
      const added = await signBedrockCall({ method: 'POST', url, headers: {}, body }, { region: 'eu-central-1' }, at);
      expect(added['authorization']).toContain('Credential=AKIAFROMENVIRONMENT1/20260301/eu-central-1/bedrock/aws4_request');
    } finally {
      if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
      else process.env.AWS_ACCESS_KEY_ID = saved.id;
      if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    }
  });
});
