import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestBaseUrl } from './request-base-url.js';

function request(headers: Record<string, string>, socket: Record<string, unknown> = {}): IncomingMessage {
  return { headers, socket: { localAddress: '127.0.0.1', localPort: 8787, ...socket } } as unknown as IncomingMessage;
}

describe('the base URL of a request', () => {
  it('is server.public_url when configured, whatever the request says', () => {
    expect(requestBaseUrl(request({ host: 'evil.example' }), 'https://ai.example.com/gateway')).toBe('https://ai.example.com/gateway');
    expect(requestBaseUrl(request({ host: 'evil.example' }), 'https://ai.example.com/')).toBe('https://ai.example.com');
  });

  it('is the Host header over plain HTTP otherwise, and https on a TLS connection', () => {
    expect(requestBaseUrl(request({ host: 'localhost:8787' }), undefined)).toBe('http://localhost:8787');
    expect(requestBaseUrl(request({ host: '[::1]:8787' }), undefined)).toBe('http://[::1]:8787');
    expect(requestBaseUrl(request({ host: 'gw.internal' }, { encrypted: true }), undefined)).toBe('https://gw.internal');
  });

  it('ignores X-Forwarded-Host and X-Forwarded-Proto, which any client can send', () => {
    const forwarded = request({ host: '10.0.0.5:8787', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(requestBaseUrl(forwarded, undefined)).toBe('http://10.0.0.5:8787');
  });

  it('falls back to the address the connection arrived on for a missing or malformed Host', () => {
    expect(requestBaseUrl(request({}), undefined)).toBe('http://127.0.0.1:8787');
    for (const host of ['evil.example/path?', 'user@evil.example', 'a b', 'evil.example#x', '']) {
      expect(requestBaseUrl(request({ host }), undefined), host).toBe('http://127.0.0.1:8787');
    }
    expect(requestBaseUrl(request({}, { localAddress: '::1', localPort: 9000 }), undefined)).toBe('http://[::1]:9000');
  });
});
