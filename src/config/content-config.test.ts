import { describe, expect, it } from 'vitest';
import { configSchema } from './config-schema.js';

function issuePaths(raw: Record<string, unknown>): string[] {
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => issue.path.join('.'));
}

describe('content and public URL configuration', () => {
  it('defaults to ./data/content, one-hour URLs, a generated secret and no public URL', () => {
    const config = configSchema.parse({});
    expect(config.content).toEqual({ dir: './data/content', url_ttl_seconds: 3600, video_ttl_seconds: 86_400, sweep_interval_seconds: 60 });
    expect(config.server.public_url).toBeUndefined();
  });

  it('takes every field, a ttl substituted from the environment as text, and a public URL without its trailing slash', () => {
    const secret = 'x'.repeat(32);
    const config = configSchema.parse({
      server: { public_url: 'https://ai.example.com/switchyard/' },
      content: { dir: '/var/lib/switchyard/content', url_ttl_seconds: '900', url_secret: secret, video_ttl_seconds: 600, max_bytes: '1000000', sweep_interval_seconds: 5 },
    });
    expect(config.content).toEqual({ dir: '/var/lib/switchyard/content', url_ttl_seconds: 900, url_secret: secret, video_ttl_seconds: 600, max_bytes: 1_000_000, sweep_interval_seconds: 5 });
    expect(config.server.public_url).toBe('https://ai.example.com/switchyard');
  });

  it('takes an S3-compatible bucket beside the directory, with region us-east-1 virtual-hosted addressing and bounded waits by default', () => {
    expect(configSchema.parse({ content: { s3: { bucket: 'media' } } }).content.s3).toEqual({ bucket: 'media', region: 'us-east-1', force_path_style: false, connect_timeout_ms: 5_000, request_timeout_ms: 60_000 });
    const config = configSchema.parse({
      content: {
        s3: {
          bucket: 'media',
          endpoint: 'http://minio.internal:9000',
          region: 'eu-west-1',
          access_key_id: 'AKIAEXAMPLE',
          secret_access_key: 'secret',
          force_path_style: true,
          prefix: 'switchyard/content/',
        },
      },
    });
    expect(config.content.s3).toEqual({
      bucket: 'media',
      endpoint: 'http://minio.internal:9000',
      region: 'eu-west-1',
      access_key_id: 'AKIAEXAMPLE',
      secret_access_key: 'secret',
      force_path_style: true,
      prefix: 'switchyard/content',
      connect_timeout_ms: 5_000,
      request_timeout_ms: 60_000,
    });
  });

  it.each([
    ['an S3 bucket without a name', { content: { s3: {} } }, 'content.s3.bucket'],
    ['an unknown S3 field', { content: { s3: { bucket: 'media', access_key: 'x' } } }, 'content.s3'],
    ['an S3 endpoint that is not an http URL', { content: { s3: { bucket: 'media', endpoint: 'minio:9000' } } }, 'content.s3.endpoint'],
    ['an S3 access key without its secret', { content: { s3: { bucket: 'media', access_key_id: 'AKIAEXAMPLE' } } }, 'content.s3.access_key_id'],
    ['an S3 secret without its access key', { content: { s3: { bucket: 'media', secret_access_key: 'secret' } } }, 'content.s3.access_key_id'],
    ['an S3 prefix that climbs out', { content: { s3: { bucket: 'media', prefix: '../other' } } }, 'content.s3.prefix'],
    ['an S3 prefix with a leading slash', { content: { s3: { bucket: 'media', prefix: '/content' } } }, 'content.s3.prefix'],
  ])('refuses %s, naming the field', (_name, raw, path) => {
    expect(issuePaths(raw)).toContain(path);
  });

  it.each([
    ['an unknown content field', { content: { directory: './x' } }, 'content'],
    ['a zero ttl', { content: { url_ttl_seconds: 0 } }, 'content.url_ttl_seconds'],
    ['a fractional ttl', { content: { url_ttl_seconds: 1.5 } }, 'content.url_ttl_seconds'],
    ['an empty dir', { content: { dir: '' } }, 'content.dir'],
    ['a short secret', { content: { url_secret: 'too-short' } }, 'content.url_secret'],
    ['a zero video ttl', { content: { video_ttl_seconds: 0 } }, 'content.video_ttl_seconds'],
    ['a negative size cap', { content: { max_bytes: -1 } }, 'content.max_bytes'],
    ['a relative public URL', { server: { public_url: '/gateway' } }, 'server.public_url'],
    ['a public URL of another scheme', { server: { public_url: 'ftp://example.com' } }, 'server.public_url'],
    ['a public URL with a query', { server: { public_url: 'https://example.com/?a=1' } }, 'server.public_url'],
    ['a public URL with credentials', { server: { public_url: 'https://user:pass@example.com' } }, 'server.public_url'],
  ])('refuses %s, naming the field', (_name, raw, path) => {
    const paths = issuePaths(raw);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths).toContain(path);
  });
});
