import { BlockList, isIP } from 'node:net';

/**
 * Addresses that lead into the gateway's own machine or network rather than to a vendor's
 * storage: loopback, private (RFC 1918, unique-local), link-local (cloud metadata services live
 * there), carrier-grade NAT, unspecified, multicast and reserved ranges.
 */
const inside = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  inside.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  inside.addSubnet(network, prefix, 'ipv6');
}

/** An IPv4 address written inside IPv6 (`::ffff:10.0.0.1`, `::ffff:a00:1`), which connects to the IPv4 one. */
function embeddedIpv4(address: string): string | undefined {
  const mapped = /^::ffff:(?:0:)?(.+)$/i.exec(address)?.[1];
  if (mapped === undefined) return undefined;
  if (isIP(mapped) === 4) return mapped;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(mapped);
  if (hex === null) return undefined;
  const high = Number.parseInt(hex[1] ?? '0', 16);
  const low = Number.parseInt(hex[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for an IP address inside the machine or a private network; false for a public one or a name. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return inside.check(bare, 'ipv4');
  if (family !== 6) return false;
  const ipv4 = embeddedIpv4(bare);
  return ipv4 === undefined ? inside.check(bare, 'ipv6') : inside.check(ipv4, 'ipv4');
}

/** A host name that always means this machine, whatever DNS says (RFC 6761). */
export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
