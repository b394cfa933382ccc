import { describe, expect, it } from 'vitest';
import { AbortScope } from '../../call/abort-scope.js';
import { sendUpstream } from '../../upstream/upstream-client.js';
import { allowsPrivateAddresses, assertOutsideHost, outsideOnlyDispatcher } from './download-address-guard.js';
import { keptContentType, servedContentType } from './video-content-type.js';

describe('allowsPrivateAddresses', () => {
  it('under auto, trusts private links only from a provider that is itself inside', async () => {
    expect(await allowsPrivateAddresses('auto', 'http://127.0.0.1:8787/v1')).toBe(true);
    expect(await allowsPrivateAddresses('auto', 'http://localhost:11434/v1')).toBe(true);
    expect(await allowsPrivateAddresses('auto', 'http://10.0.0.5/v1')).toBe(true);
    expect(await allowsPrivateAddresses('auto', 'https://142.250.74.110')).toBe(false);
    expect(await allowsPrivateAddresses('auto', 'https://[2001:4860:4860::8888]/v1')).toBe(false);
  });

  it('refuse and allow say so whatever the provider', async () => {
    expect(await allowsPrivateAddresses('refuse', 'http://127.0.0.1:8787/v1')).toBe(false);
    expect(await allowsPrivateAddresses('allow', 'https://142.250.74.110')).toBe(true);
  });
});

describe('assertOutsideHost', () => {
  it.each(['http://127.0.0.1:9000/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://169.254.169.254/latest/meta-data', 'http://localhost/x', 'file:///etc/passwd'])('refuses %s', (url) => {
    expect(() => assertOutsideHost(new URL(url))).toThrow(expect.objectContaining({ code: 'upstream_content_refused' }));
  });

  it('lets a public address or a name through (names are checked when connecting)', () => {
    expect(() => assertOutsideHost(new URL('https://142.250.74.110/x'))).not.toThrow();
    expect(() => assertOutsideHost(new URL('https://storage.googleapis.com/x'))).not.toThrow();
  });
});

describe('video content types', () => {
  it('keeps video and image types, names unnamed storage by the variant, and refuses the rest', () => {
    expect(keptContentType('video', 'video/mp4; codecs="avc1"')).toBe('video/mp4');
    expect(keptContentType('thumbnail', 'image/JPEG')).toBe('image/jpeg');
    expect(keptContentType('video', 'application/octet-stream')).toBe('video/mp4');
    expect(keptContentType('video', undefined)).toBe('video/mp4');
    for (const [variant, type] of [['video', 'text/html'], ['thumbnail', 'image/svg+xml'], ['spritesheet', 'application/xhtml+xml'], ['thumbnail', 'video/mp4']] as const) {
      expect(() => keptContentType(variant, type)).toThrow(expect.objectContaining({ code: 'upstream_content_refused' }));
    }
  });

  it('serves a type kept before types were checked as plain bytes', () => {
    expect(servedContentType('video', 'text/html')).toBe('application/octet-stream');
    expect(servedContentType('thumbnail', 'image/webp')).toBe('image/webp');
  });
});

describe('outsideOnlyDispatcher', () => {
  it('refuses, when connecting, a name whose address is inside (checked after the lookup, not by the name)', async () => {
    // localhost is resolved here like any other name: the refusal comes from its address.
    const sent = sendUpstream({ method: 'GET', url: 'http://localhost:9/video.mp4', headers: {}, signal: new AbortScope(), timeoutMs: 2_000, dispatcher: outsideOnlyDispatcher() });
    await expect(sent).rejects.toMatchObject({ code: 'upstream_content_refused' });
  });
});
