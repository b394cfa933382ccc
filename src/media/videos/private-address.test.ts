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

describe('isPrivateAddress on IPv4 wrapped in IPv6', () => {
  it.each([
    ['NAT64 64:ff9b::/96, dotted', '64:ff9b::169.254.169.254'],
    ['NAT64 64:ff9b::/96, hex', '64:FF9B::A9FE:A9FE'],
    ['NAT64 64:ff9b::/96 to loopback', '64:ff9b::7f00:1'],
    ['local-use NAT64 64:ff9b:1::/48 (the operator\'s own translator)', '64:ff9b:1::a9fe:a9fe'],
    ['local-use NAT64 64:ff9b:1::/48 with the IPv4 address after bit 48', '64:ff9b:1:a9fe:a9:fe00::'],
    ['6to4 2002::/16 around the metadata service', '2002:a9fe:a9fe::1'],
    ['6to4 2002::/16 around a private network', '2002:c0a8:101::1'],
    ['Teredo 2001::/32 whose client (bits inverted) is loopback', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
    ['Teredo 2001::/32 whose server is private', '2001:0:a00:1:8000:63bf:3fff:fdd2'],
    ['IPv4-translated ::ffff:0:0:0/96', '::ffff:0:a9fe:a9fe'],
    ['IPv4-compatible ::/96', '::a9fe:a9fe'],
    ['a mapped address with a zone', '::ffff:a9fe:a9fe%eth0'],
  ])('counts %s (%s) as inside', (_form, address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    ['NAT64 of a public address', '64:ff9b::8.8.8.8'],
    ['6to4 of a public address', '2002:808:808::1'],
    ['Teredo with a public server and client', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['a public address near 2002::/16', '2003:e0::1'],
  ])('counts %s (%s) as outside', (_form, address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('isLoopbackName', () => {
  it('knows localhost and its subdomains, not other names', () => {
    expect([isLoopbackName('localhost'), isLoopbackName('LOCALHOST.'), isLoopbackName('app.localhost'), isLoopbackName('localhost.example.com')]).toEqual([true, true, true, false]);
  });
});
