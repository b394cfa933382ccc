import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBedrockCall } from '../../../src/providers/bedrock/sign-request.js';
import { readFixture } from '../fixtures.js';
import { startFakeBedrock, type FakeBedrock } from './fake-bedrock.js';
import { computeSignature } from './verify-sigv4.js';

// AWS's Signature Version 4 test suite (docs.aws.amazon.com/general/latest/gr/signature-v4-test-suite.html,
// cases get-vanilla and post-vanilla): these credentials, date and scope, and the signatures AWS published.
const suiteSecret = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
const suiteDate = '20150830T123600Z';
const suiteScope = '20150830/us-east-1/service/aws4_request';
const suiteHeaders = { host: 'example.amazonaws.com', 'x-amz-date': suiteDate };

describe('the fake Bedrock signature check', () => {
  it("computes AWS's published signature for the SigV4 suite's get-vanilla", () => {
    const signed = computeSignature({ method: 'GET', target: '/', headers: suiteHeaders, body: Buffer.alloc(0) }, ['host', 'x-amz-date'], suiteDate, suiteScope, suiteSecret);
    expect(signed.signature).toBe('5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });

  it("computes AWS's published signature for the SigV4 suite's post-vanilla", () => {
    const signed = computeSignature({ method: 'POST', target: '/', headers: suiteHeaders, body: Buffer.alloc(0) }, ['host', 'x-amz-date'], suiteDate, suiteScope, suiteSecret);
    expect(signed.signature).toBe('5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b');
  });
});

describe('the fake Bedrock Runtime', () => {
  let bedrock: FakeBedrock;
  let keyed: FakeBedrock;
  beforeAll(async () => {
    bedrock = await startFakeBedrock();
    keyed = await startFakeBedrock({ apiKey: 'bedrock-api-key-123' });
  });
  afterAll(async () => {
    await bedrock.close();
    await keyed.close();
  });

  const claudeBody = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });

  async function send(fake: FakeBedrock, modelId: string, body: string, secretAccessKey = fake.secret.secretAccessKey, operation = 'invoke') {
    const url = `${fake.url}/model/${encodeURIComponent(modelId)}/${operation}`;
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    const added = await signBedrockCall({ method: 'POST', url, headers, body }, { region: fake.region, accessKeyId: fake.secret.accessKeyId, secretAccessKey });
    const response = await request(url, { method: 'POST', headers: { ...headers, ...added }, body });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  }

  it('accepts a call signed as the AWS SDK signs it, for a model ARN whose id is escaped in the path', async () => {
    const arn = 'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0';
    const answer = await send(bedrock, arn, claudeBody);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ type: 'message', role: 'assistant' });
    expect(bedrock.requests.at(-1)?.modelId).toBe(arn);
  });

  it("refuses a signature made with the wrong secret in Bedrock's own words", async () => {
    const answer = await send(bedrock, 'us.anthropic.claude-haiku-4-5-20251001-v1:0', claudeBody, 'not-the-secret');
    expect(answer.status).toBe(403);
    expect(String(answer.headers['x-amzn-errortype'])).toMatch(/^InvalidSignatureException:/);
    expect(JSON.parse(answer.text)).toEqual({ message: expect.stringMatching(/^The request signature we calculated does not match the signature you provided/) });
  });

  it('refuses a body changed after it was signed', async () => {
    const url = `${bedrock.url}/model/anthropic.claude-3-haiku/invoke`;
    const headers = { 'content-type': 'application/json' };
    const added = await signBedrockCall({ method: 'POST', url, headers, body: claudeBody }, { region: 'us-east-1', ...bedrock.secret });
    const response = await request(url, { method: 'POST', headers: { ...headers, ...added }, body: claudeBody.replace('Hi', 'Ho') });
    expect(response.statusCode).toBe(403);
    await response.body.text();
  });

  it('refuses a call signed for another region', async () => {
    const url = `${bedrock.url}/model/anthropic.claude-3-haiku/invoke`;
    const added = await signBedrockCall({ method: 'POST', url, headers: {}, body: claudeBody }, { region: 'eu-west-1', ...bedrock.secret });
    const response = await request(url, { method: 'POST', headers: added, body: claudeBody });
    expect(response.statusCode).toBe(403);
    await response.body.text();
  });

  it('takes its API key as a bearer token and refuses another', async () => {
    const url = `${keyed.url}/model/anthropic.claude-3-haiku/invoke`;
    const good = await request(url, { method: 'POST', headers: { authorization: 'Bearer bedrock-api-key-123' }, body: claudeBody });
    expect(good.statusCode).toBe(200);
    await good.body.text();
    const bad = await request(url, { method: 'POST', headers: { authorization: 'Bearer another-key' }, body: claudeBody });
    expect(bad.statusCode).toBe(403);
    expect(bad.headers['x-amzn-errortype']).toMatch(/^AccessDeniedException/);
    await bad.body.text();
  });

  it('refuses a Claude body with a model or without the Bedrock anthropic_version, as Bedrock does', async () => {
    const withModel = await send(bedrock, 'anthropic.claude-3-haiku', JSON.stringify({ ...JSON.parse(claudeBody), model: 'claude' }));
    expect(withModel.status).toBe(400);
    expect(JSON.parse(withModel.text).message).toContain('extraneous key [model]');
    const undated = await send(bedrock, 'anthropic.claude-3-haiku', JSON.stringify({ max_tokens: 5, messages: [] }));
    expect(undated.status).toBe(400);
  });

  it('answers the documented Nova Canvas body with PNGs of the size it asks for, and refuses sizes Nova cannot draw', async () => {
    const documented = readFixture('bedrock/images/nova-canvas-text-image-request.json');
    const answer = await send(bedrock, 'amazon.nova-canvas-v1:0', documented);
    expect(answer.status).toBe(200);
    const images = (JSON.parse(answer.text) as { images: string[] }).images;
    expect(images).toHaveLength(1);
    const header = Buffer.from(images[0] ?? '', 'base64');
    expect([header.readUInt32BE(16), header.readUInt32BE(20)]).toEqual([512, 512]);
    const config = (JSON.parse(documented) as { imageGenerationConfig: Record<string, unknown> }).imageGenerationConfig;
    for (const wrong of [{ width: 1000 }, { width: 4096, height: 2048 }, { width: 320, height: 2048 }, { numberOfImages: 6 }]) {
      const refused = await send(bedrock, 'amazon.nova-canvas-v1:0', JSON.stringify({ ...JSON.parse(documented), imageGenerationConfig: { ...config, ...wrong } }));
      expect(refused.status).toBe(400);
      expect(String(refused.headers['x-amzn-errortype'])).toMatch(/^ValidationException:/);
    }
  });

  it('answers the documented Stable Image Ultra body, and refuses a member or aspect ratio Stability does not take', async () => {
    const documented = readFixture('bedrock/images/stable-image-ultra-request.json');
    const answer = await send(bedrock, 'stability.stable-image-ultra-v1:1', documented);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ seeds: [expect.any(Number)], finish_reasons: [null], images: [expect.any(String)] });
    for (const wrong of [{ n: 2 }, { aspect_ratio: '4:3' }, { output_format: 'gif' }]) {
      const refused = await send(bedrock, 'stability.stable-image-ultra-v1:1', JSON.stringify({ ...JSON.parse(documented), ...wrong }));
      expect(refused.status).toBe(400);
    }
  });

  it('answers a scripted throttling error in the shape Bedrock uses', async () => {
    bedrock.script({ kind: 'error', status: 429, errorType: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' });
    const answer = await send(bedrock, 'anthropic.claude-3-haiku', claudeBody);
    expect(answer.status).toBe(429);
    expect(String(answer.headers['x-amzn-errortype'])).toMatch(/^ThrottlingException/);
  });
});
