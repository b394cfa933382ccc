import { readdirSync } from 'node:fs';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { ContentSweeper } from '../../src/media/content-store/content-sweeper.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { startS3ProtocolServer, s3ProtocolServerCredentials, type S3ProtocolServer } from '../support/s3-protocol-server.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * A gateway whose content lives in an S3-compatible bucket (s3rver here): an image asked for by
 * URL and a simulator video are stored as objects under the configured prefix, served back
 * through the gateway (the video by byte range too), and swept from the bucket once expired.
 */

let s3: S3ProtocolServer;
let bucket: S3Client;
let gateway: TestGateway;
let client: OpenAI;
let unusedDirectory: string;

beforeAll(async () => {
  s3 = await startS3ProtocolServer('gateway-content');
  bucket = s3.client();
  unusedDirectory = temporaryContentDirectory();
  gateway = await startTestGateway({
    ...defaultConfig({}),
    videos: quickVideoSettings,
    content: {
      // Given as well, to show the bucket wins: nothing may be written here.
      dir: unusedDirectory,
      s3: {
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        access_key_id: s3ProtocolServerCredentials.accessKeyId,
        secret_access_key: s3ProtocolServerCredentials.secretAccessKey,
        force_path_style: true,
        prefix: 'switchyard/content',
      },
    },
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway?.close();
  bucket?.destroy();
  await s3?.stop();
});

async function objectKeys(): Promise<string[]> {
  const listed = await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  return (listed.Contents ?? []).map((object) => object.Key ?? '').sort();
}

async function objectBytes(key: string): Promise<{ bytes: Buffer; contentType: string | undefined; metadata: Record<string, string> | undefined }> {
  const response = await bucket.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return { bytes: Buffer.from((await response.Body?.transformToByteArray()) ?? []), contentType: response.ContentType, metadata: response.Metadata };
}

describe('content kept in an S3-compatible bucket', () => {
  let imageKey: string;
  let videoId: string;

  it('stores an image asked for by URL in the bucket and serves it through the gateway', async () => {
    const answer = await client.images.generate({ model: 'sim-image', prompt: 'a red kite', size: '1024x1024', quality: 'low', output_format: 'png', response_format: 'url' });
    const url = answer.data?.[0]?.url;
    expect(url).toMatch(new RegExp(`^${gateway.url}/v1/images/content/img_`));
    const served = await fetch(url ?? '');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');

    const images = (await objectKeys()).filter((key) => key.startsWith('switchyard/content/images/'));
    expect(images).toHaveLength(1);
    imageKey = images[0] ?? '';
    const stored = await objectBytes(imageKey);
    expect(stored.bytes.equals(bytes)).toBe(true);
    expect(stored.contentType).toBe('image/png');
    expect(stored.metadata?.['expires-at']).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('streams a finished video into the bucket and serves it whole and by byte range', async () => {
    const created = await client.videos.create({ model: 'sim-video', prompt: 'a lighthouse at dusk [video-ms:600]', seconds: '4', size: '1280x720' });
    videoId = created.id;
    expect((await pollUntilDone(client, videoId)).video.status).toBe('completed');

    const whole = Buffer.from(await (await client.videos.downloadContent(videoId)).arrayBuffer());
    expect(whole.subarray(4, 8).toString()).toBe('ftyp');
    const stored = await objectBytes(`switchyard/content/videos/${videoId}/video`);
    expect(stored.bytes.equals(whole)).toBe(true);
    expect(stored.contentType).toBe('video/mp4');

    const part = await fetch(`${gateway.url}/v1/videos/${videoId}/content`, { headers: { range: 'bytes=100-1123' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1123/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(100, 1124))).toBe(true);
    const outside = await fetch(`${gateway.url}/v1/videos/${videoId}/content`, { headers: { range: `bytes=${whole.length}-` } });
    expect(outside.status).toBe(416);

    const thumbnail = await client.videos.downloadContent(videoId, { variant: 'thumbnail' });
    expect(thumbnail.status).toBe(200);
    expect(await objectKeys()).toContain(`switchyard/content/videos/${videoId}/thumbnail`);
  });

  it('left the local directory untouched', () => {
    expect(readdirSync(unusedDirectory)).toEqual([]);
  });

  it('sweeps content from the bucket only once it has expired', async () => {
    const sweeper = new ContentSweeper(gateway.services.contentStore, { intervalSeconds: 60 }, gateway.services.logger);
    const ours = [imageKey, `switchyard/content/videos/${videoId}/video`, `switchyard/content/videos/${videoId}/thumbnail`];
    expect(await sweeper.sweepOnce(new Date())).toEqual([]);
    expect(await objectKeys()).toEqual(expect.arrayContaining(ours));

    // Two days on: past the image URL's hour and the video's day.
    const removed = await sweeper.sweepOnce(new Date(Date.now() + 2 * 86_400_000));
    expect(removed.sort()).toEqual(ours.map((key) => key.replace('switchyard/content/', '')).sort());
    const left = await objectKeys();
    for (const key of ours) expect(left).not.toContain(key);
    expect((await fetch(`${gateway.url}/v1/videos/${videoId}/content`)).status).toBe(404);
  });

  it('answers 503 content_store_unavailable, naming no endpoint, when the bucket stops answering', async () => {
    const answer = await client.images.generate({ model: 'sim-image', prompt: 'a last kite', size: '1024x1024', quality: 'low', response_format: 'url' });
    const url = answer.data?.[0]?.url ?? '';
    expect((await fetch(url)).status).toBe(200);
    await s3.stop();
    const response = await fetch(url);
    expect(response.status).toBe(503);
    const body = await response.text();
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'content_store_unavailable' } });
    expect(body).not.toContain(new URL(s3.endpoint).host);
    expect(body).not.toContain(s3.bucket);
  });
});
