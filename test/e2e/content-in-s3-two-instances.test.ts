import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { startS3ProtocolServer, s3ProtocolServerCredentials, type S3ProtocolServer } from '../support/s3-protocol-server.js';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

/**
 * Two `switchyard serve` processes that share nothing but a bucket (named in the config file
 * through `${NAME}` substitution) and a URL secret: an image URL one of them hands out is served
 * by the other, as behind a load balancer. Needs `npm run build` first.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');

let s3: S3ProtocolServer;
let workDirectory: string;
const instances: SpawnedGateway[] = [];

beforeAll(async () => {
  s3 = await startS3ProtocolServer('shared-content');
  workDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-s3-instances-'));
});
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await s3?.stop();
  rmSync(workDirectory, { recursive: true, force: true });
});

async function startInstance(name: string): Promise<SpawnedGateway> {
  const config = {
    ...defaultConfig({}),
    database: { url: `sqlite:./${name}.db` },
    content: {
      dir: `./${name}-content`,
      url_secret: 'a-shared-secret-of-at-least-thirty-two-characters',
      s3: {
        bucket: '${CONTENT_BUCKET}',
        endpoint: '${CONTENT_ENDPOINT}',
        access_key_id: '${CONTENT_ACCESS_KEY_ID}',
        secret_access_key: '${CONTENT_SECRET_ACCESS_KEY}',
        force_path_style: true,
        prefix: 'gateway',
      },
    },
  };
  const file = path.join(workDirectory, `${name}.yaml`);
  writeFileSync(file, JSON.stringify(config));
  const gateway = await spawnGateway(process.execPath, [bin, 'serve', '--config', file, '--port', '0'], {
    cwd: workDirectory,
    env: zeroConfigEnvironment({
      CONTENT_BUCKET: s3.bucket,
      CONTENT_ENDPOINT: s3.endpoint,
      CONTENT_ACCESS_KEY_ID: s3ProtocolServerCredentials.accessKeyId,
      CONTENT_SECRET_ACCESS_KEY: s3ProtocolServerCredentials.secretAccessKey,
      SWITCHYARD_LOG_FORMAT: 'json',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    }),
    urlPattern: /"url":"(http:\/\/[^"]+)"/,
  });
  instances.push(gateway);
  return gateway;
}

describe('two instances sharing a bucket', () => {
  it('serve each other’s image URLs from the bucket, with no local directory written', async () => {
    const [first, second] = await Promise.all([startInstance('first'), startInstance('second')]);
    const client = new OpenAI({ baseURL: `${first.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const answer = await client.images.generate({ model: 'sim-image', prompt: 'a harbour', size: '1024x1024', quality: 'low', output_format: 'webp', response_format: 'url' });
    const url = new URL(answer.data?.[0]?.url ?? '');
    expect(url.pathname).toMatch(/^\/v1\/images\/content\/img_/);

    const fromFirst = await fetch(url);
    const fromSecond = await fetch(`${second.url}${url.pathname}${url.search}`);
    expect(fromFirst.status).toBe(200);
    expect(fromSecond.status).toBe(200);
    expect(fromSecond.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await fromSecond.arrayBuffer());
    expect(bytes.equals(Buffer.from(await fromFirst.arrayBuffer()))).toBe(true);
    expect(bytes.subarray(8, 12).toString()).toBe('WEBP');
    expect(readdirSync(workDirectory).filter((entry) => entry.endsWith('-content'))).toEqual([]);
  });
});
