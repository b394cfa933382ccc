import { describe, expect, it } from 'vitest';
import { isLoopbackName, isPrivateAddress } from './private-address.js';

describe('isPrivateAddress', () => {
  it.each(['127.0.0.1', '127.9.9.9', '10.20.30.40', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '[::1]', '::', 'fd12:3456::1', 'fe80::1', '::ffff:10.0.0.1', '::ffff:a00:1', '::ffff:127.0.0.1'])(
    'counts %s as inside',
    (address) => {
      expect(isPrivateAddress(address)).toBe(true);
    },
  );

  it.each(['8.8.8.8', '172.32.0.1', '192.169.0.1', '142.250.74.110', '2001:4860:4860::8888', '::ffff:8.8.8.8', 'storage.googleapis.com'])('counts %s as outside', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('isLoopbackName', () => {
  it('knows localhost and its subdomains, not other names', () => {
    expect([isLoopbackName('localhost'), isLoopbackName('LOCALHOST.'), isLoopbackName('app.localhost'), isLoopbackName('localhost.example.com')]).toEqual([true, true, true, false]);
  });
});
