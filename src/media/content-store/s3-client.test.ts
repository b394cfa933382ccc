import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema, type S3ContentConfig } from '../../config/config-schema.js';
import { s3ClientFor } from './s3-client.js';
import { S3ContentStore } from './s3-content-store.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server that records each request and answers as `answer` says (or never, when it says nothing). */
async function recordingServer(answer: (respond: (status: number, body: string) => void) => void): Promise<{ endpoint: string; requests: { url: string; headers: IncomingHttpHeaders }[] }> {
  const requests: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    request.resume();
    answer((status, body) => response.writeHead(status, { 'content-type': 'application/xml' }).end(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

function s3Config(fields: Record<string, unknown>): S3ContentConfig {
  const config = configSchema.parse({ content: { s3: { bucket: 'media', ...fields } } }).content.s3;
  if (config === undefined) throw new Error('no s3 config');
  return config;
}

const noSuchKey = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>gone</Message></Error>';

describe('the S3 client of the content store', () => {
  it('signs with the configured keys and addresses endpoint/bucket/key when path style is asked for', async () => {
    const { endpoint, requests } = await recordingServer((respond) => respond(404, noSuchKey));
    const client = s3ClientFor(s3Config({ endpoint, region: 'eu-west-1', access_key_id: 'AKIACONFIGURED', secret_access_key: 'secret', force_path_style: true }));
    expect(await new S3ContentStore(client, { bucket: 'media', prefix: 'p' }).get('images/a/0.png')).toBeUndefined();
    client.destroy();
    expect(new URL(requests[0]?.url ?? '', endpoint).pathname).toBe('/media/p/images/a/0.png');
    expect(requests[0]?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIACONFIGURED\/\d{8}\/eu-west-1\/s3\/aws4_request/);
  });

  it("without keys in the config, signs with the SDK's default chain (here the environment)", async () => {
    const { endpoint, requests } = await recordingServer((respond) => respond(404, noSuchKey));
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = 'AKIAFROMENVIRONMENT';
    process.env.AWS_SECRET_ACCESS_KEY = 'environment-secret';
    try {
      const client = s3ClientFor(s3Config({ endpoint, force_path_style: true }));
      await new S3ContentStore(client, { bucket: 'media' }).get('images/a/0.png');
      client.destroy();
    } finally {
      for (const [name, value] of [['AWS_ACCESS_KEY_ID', saved.id], ['AWS_SECRET_ACCESS_KEY', saved.secret]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(requests[0]?.headers.authorization).toMatch(/Credential=AKIAFROMENVIRONMENT\/\d{8}\/us-east-1\//);
  });

  it('gives up on a bucket that accepts the connection but never answers', async () => {
    const { endpoint, requests } = await recordingServer(() => undefined);
    const client = s3ClientFor(s3Config({ endpoint, access_key_id: 'AKIA', secret_access_key: 'secret', force_path_style: true }), { connectionMs: 1_000, answerMs: 200 });
    const started = Date.now();
    await expect(new S3ContentStore(client, { bucket: 'media' }).get('images/a/0.png')).rejects.toMatchObject({ code: 'content_store_unavailable' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(requests.length).toBeGreaterThanOrEqual(1);
    client.destroy();
  });
});
