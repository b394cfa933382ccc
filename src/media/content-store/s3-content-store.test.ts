import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3ProtocolServer, type S3ProtocolServer } from '../../../test/support/s3-protocol-server.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { describeContentStore } from './content-store-contract.test-support.js';
import { S3ContentStore } from './s3-content-store.js';
import { s3ClientFor } from './s3-client.js';

let server: S3ProtocolServer;
let client: S3Client;
let stores = 0;

beforeAll(async () => {
  server = await startS3ProtocolServer();
  client = server.client();
});
afterAll(async () => {
  client?.destroy();
  await server?.stop();
});

// Each store under its own prefix, so the cases do not see each other's objects; pages of 20, so
// the paging case's 23 items take two pages, the first asked about in more than one batch of HEADs.
describeContentStore('S3-compatible bucket', async () => {
  stores += 1;
  return new S3ContentStore(client, { bucket: server.bucket, prefix: `run-${stores}`, pageSize: 20 });
});

async function objectText(key: string): Promise<string> {
  const response = await client.send(new GetObjectCommand({ Bucket: server.bucket, Key: key }));
  return (await response.Body?.transformToString()) ?? '';
}

describe('S3 content store', () => {
  it('keeps content at prefix/key, with its type, and its expiry as metadata', async () => {
    const store = new S3ContentStore(client, { bucket: server.bucket, prefix: 'layout/' });
    await store.put('images/img_1/0.png', Buffer.from('png bytes'), 'image/png', { expiresAt: new Date('2030-01-02T03:04:05.000Z') });
    const response = await client.send(new GetObjectCommand({ Bucket: server.bucket, Key: 'layout/images/img_1/0.png' }));
    expect(response.ContentType).toBe('image/png');
    expect(response.Metadata).toEqual({ 'expires-at': '2030-01-02T03:04:05.000Z' });
    expect(await response.Body?.transformToString()).toBe('png bytes');
  });

  it('lists only its own objects: those under its prefix whose names are content keys', async () => {
    const store = new S3ContentStore(client, { bucket: server.bucket, prefix: 'mine', pageSize: 2 });
    await store.put('a/1', Buffer.from('1'), 'text/plain');
    await store.put('b/2', Buffer.from('22'), 'text/plain');
    await client.send(new PutObjectCommand({ Bucket: server.bucket, Key: 'mine-too-similar/c', Body: 'x' }));
    await client.send(new PutObjectCommand({ Bucket: server.bucket, Key: 'mine/has space', Body: 'x' }));
    await client.send(new PutObjectCommand({ Bucket: server.bucket, Key: 'elsewhere/d', Body: 'x' }));
    const keys: string[] = [];
    for await (const entry of store.list()) keys.push(entry.key);
    expect(keys.sort()).toEqual(['a/1', 'b/2']);
    expect(await objectText('elsewhere/d')).toBe('x');
  });

  it('reads a streamed body only a few parts ahead of what the bucket has taken', async () => {
    const mebibyte = 1024 * 1024;
    const watched = server.client();
    let produced = 0;
    let taken = 0;
    let mostAhead = 0;
    watched.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (context.commandName === 'UploadPartCommand') taken += ((args.input as { Body?: Uint8Array }).Body?.byteLength ?? 0);
        return result;
      },
      { step: 'initialize', name: 'countTakenBytes' },
    );
    async function* thirtyMebibytes(): AsyncIterable<Uint8Array> {
      for (let index = 0; index < 30; index += 1) {
        mostAhead = Math.max(mostAhead, produced - taken);
        produced += mebibyte;
        yield Buffer.alloc(mebibyte, index);
      }
    }
    const stored = await new S3ContentStore(watched, { bucket: server.bucket, prefix: 'bounded' }).put('videos/long/video', thirtyMebibytes(), 'video/mp4');
    watched.destroy();
    expect(stored.size).toBe(30 * mebibyte);
    expect(taken).toBe(30 * mebibyte);
    // At most two 5 MiB parts in flight, one filling, and the chunk in hand; measured: 11 MiB.
    expect(mostAhead).toBeLessThanOrEqual(16 * mebibyte);
  });

  it('without a prefix, keeps content at the key itself', async () => {
    const store = new S3ContentStore(client, { bucket: server.bucket });
    await store.put('plain/key.txt', Buffer.from('at the root'), 'text/plain');
    expect(await objectText('plain/key.txt')).toBe('at the root');
  });

  it("reports the source's own error when a streamed upload fails part way, and keeps the old content", async () => {
    const store = new S3ContentStore(client, { bucket: server.bucket, prefix: 'abort' });
    await store.put('videos/v/content.mp4', Buffer.from('old'), 'video/mp4');
    async function* failsAfterOnePart(): AsyncIterable<Uint8Array> {
      yield Buffer.alloc(6 * 1024 * 1024, 1);
      throw new Error('upstream went away');
    }
    await expect(store.put('videos/v/content.mp4', failsAfterOnePart(), 'video/mp4')).rejects.toThrow('upstream went away');
    expect(await objectText('abort/videos/v/content.mp4')).toBe('old');
  });

  it('reports a store it cannot reach as content_store_unavailable, naming neither endpoint nor keys', async () => {
    const unreachable = s3ClientFor({
      bucket: 'private-bucket-name',
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      access_key_id: 'AKIASECRETKEYID',
      secret_access_key: 'very-secret-access-key',
      force_path_style: true,
    });
    const store = new S3ContentStore(unreachable, { bucket: 'private-bucket-name' });
    const failures = await Promise.all([
      store.put('images/x/0.png', Buffer.from('x'), 'image/png').catch((error: unknown) => error),
      store.get('images/x/0.png').catch((error: unknown) => error),
      store.delete('images/x/0.png').catch((error: unknown) => error),
      (async () => {
        for await (const entry of store.list()) void entry;
      })().catch((error: unknown) => error),
    ]);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(GatewayError);
      expect(failure).toMatchObject({ code: 'content_store_unavailable', status: 503 });
      const { message, cause } = failure as GatewayError;
      expect(message).toMatch(/^The content store could not (store|read|remove|list) content \(ECONNREFUSED\); try again later\.$/);
      expect(cause).toBeUndefined();
      for (const secret of ['127.0.0.1', ':9', 'private-bucket-name', 'AKIASECRETKEYID', 'very-secret-access-key']) expect(message).not.toContain(secret);
    }
    unreachable.destroy();
  });

  it('reports a missing bucket as content_store_unavailable rather than as missing content', async () => {
    const store = new S3ContentStore(client, { bucket: 'no-such-bucket' });
    await expect(store.get('images/x/0.png')).rejects.toMatchObject({ code: 'content_store_unavailable', message: expect.stringContaining('(NoSuchBucket, HTTP 404)') });
    await expect(store.put('images/x/0.png', Buffer.from('x'), 'image/png')).rejects.toMatchObject({ code: 'content_store_unavailable' });
  });
});
