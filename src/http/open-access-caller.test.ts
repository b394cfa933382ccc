import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { assertOpenAccessCaller } from './open-access-caller.js';

function verdict(headers: Record<string, string>, loopbackHostOnly = true): string {
  try {
    assertOpenAccessCaller(new Headers(headers), loopbackHostOnly);
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe('permission_denied');
    return 'refused';
  }
}

describe('who open access takes a keyless call from', () => {
  it('takes every loopback Host, with or without a port', () => {
    for (const host of ['localhost', 'localhost:8787', 'LocalHost:1', '127.0.0.1', '127.0.0.1:8787', '127.255.0.9:80', '[::1]', '[::1]:8787']) {
      expect(verdict({ host }), host).toBe('accepted');
    }
  });

  it('refuses any other Host, a missing one and names made to look like loopback', () => {
    for (const host of ['', 'example.com', 'example.com:8787', '127.0.0.1.example.com', 'localhost.example.com', '0.0.0.0:8787', '10.0.0.1', '[::2]:8787', '[::1', '128.0.0.1', '127.1']) {
      expect(verdict(host === '' ? {} : { host }), host).toBe('refused');
    }
  });

  it("takes the gateway's own origin and pages on this machine; refuses other sites, null and what cannot be read", () => {
    const host = '127.0.0.1:8787';
    expect(verdict({ host, origin: 'http://127.0.0.1:8787' })).toBe('accepted');
    expect(verdict({ host, origin: 'http://localhost:3000' })).toBe('accepted');
    expect(verdict({ host, origin: 'http://[::1]:3000' })).toBe('accepted');
    for (const origin of ['https://example.com', 'http://127.0.0.1.example.com:8787', 'null', 'not a url']) expect(verdict({ host, origin }), origin).toBe('refused');
  });

  it('refuses Sec-Fetch-Site: cross-site whatever the Origin, and takes the other values', () => {
    const host = 'localhost:8787';
    expect(verdict({ host, 'sec-fetch-site': 'cross-site' })).toBe('refused');
    expect(verdict({ host, 'sec-fetch-site': 'Cross-Site', origin: 'http://localhost:8787' })).toBe('refused');
    for (const site of ['same-origin', 'same-site', 'none']) expect(verdict({ host, 'sec-fetch-site': site }), site).toBe('accepted');
  });

  it('under open_access: always, takes any Host but still refuses other sites', () => {
    expect(verdict({ host: 'ai.example.com' }, false)).toBe('accepted');
    expect(verdict({ host: 'ai.example.com', origin: 'https://ai.example.com' }, false)).toBe('accepted');
    expect(verdict({ host: 'ai.example.com', origin: 'https://attacker.example' }, false)).toBe('refused');
    expect(verdict({ host: 'ai.example.com', 'sec-fetch-site': 'cross-site' }, false)).toBe('refused');
  });

  it('takes pages on this machine only when the gateway is reached on loopback too', () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:8787', 'http://[::1]:3000']) {
      expect(verdict({ host: 'ai.example.com', origin }, false), origin).toBe('refused');
      expect(verdict({ host: 'localhost:8787', origin }, false), origin).toBe('accepted');
    }
  });

  it("takes the gateway's own origin whether or not the Host names the scheme's default port", () => {
    expect(verdict({ host: 'ai.example.com:443', origin: 'https://ai.example.com' }, false)).toBe('accepted');
    expect(verdict({ host: 'ai.example.com:80', origin: 'http://ai.example.com' }, false)).toBe('accepted');
    expect(verdict({ host: 'AI.example.com', origin: 'https://ai.example.com:443' }, false)).toBe('accepted');
    expect(verdict({ host: 'ai.example.com:80', origin: 'https://ai.example.com' }, false)).toBe('refused');
    expect(verdict({ host: 'ai.example.com:443', origin: 'http://ai.example.com' }, false)).toBe('refused');
    expect(verdict({ host: 'ai.example.com', origin: 'https://ai.example.com:8443' }, false)).toBe('refused');
    expect(verdict({ host: 'ai.example.com:8443', origin: 'https://ai.example.com' }, false)).toBe('refused');
  });
});
