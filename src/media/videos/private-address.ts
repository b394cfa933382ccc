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
  // Local-use NAT64 (RFC 8215): a translator of the operator's own, so whatever it wraps is inside.
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  // Site-local, deprecated but still routed inside some networks.
  ['fec0::', 10],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  inside.addSubnet(network, prefix, 'ipv6');
}

/** An IPv6 address (already checked by `isIP`) as its eight 16-bit words; a trailing dotted IPv4 becomes the last two. */
function ipv6Words(address: string): number[] {
  const text = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a: string, b: string, c: string, d: string) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((word) => word.toString(16)).join(':'),
  );
  const [head = '', tail] = text.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((word) => Number.parseInt(word, 16)));
  const front = words(head);
  const back = tail === undefined ? [] : words(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The IPv4 addresses an IPv6 address carries and may be delivered to: mapped (`::ffff:0:0/96`),
 * translated (`::ffff:0:0:0/96`) and compatible (`::/96`) forms, NAT64's well-known prefix
 * (`64:ff9b::/96`, a translator turns it into a connection to the IPv4 one), 6to4 (`2002::/16`,
 * the relay's IPv4 in bits 16–48) and Teredo (`2001::/32`: the server, and the client with its
 * bits inverted). A private one of these would reach the network through the wrapper.
 */
function embeddedIpv4(words: readonly number[]): string[] {
  const [w0, w1, w2, w3, w4, w5, w6, w7] = words as [number, number, number, number, number, number, number, number];
  const zeroTo = (end: number) => words.slice(0, end).every((word) => word === 0);
  if (zeroTo(5) && w5 === 0xffff) return [ipv4Of(w6, w7)];
  if (zeroTo(4) && w4 === 0xffff && w5 === 0) return [ipv4Of(w6, w7)];
  if (zeroTo(6)) return [ipv4Of(w6, w7)];
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) return [ipv4Of(w6, w7)];
  if (w0 === 0x2002) return [ipv4Of(w1, w2)];
  if (w0 === 0x2001 && w1 === 0) return [ipv4Of(w2, w3), ipv4Of(~w6 & 0xffff, ~w7 & 0xffff)];
  return [];
}

/** True for an IP address inside the machine or a private network; false for a public one or a name. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return inside.check(bare, 'ipv4');
  if (family !== 6) return false;
  // A zone (`fe80::1%eth0`) names the interface, not the address.
  const unzoned = bare.replace(/%.*$/, '');
  if (inside.check(unzoned, 'ipv6')) return true;
  return embeddedIpv4(ipv6Words(unzoned)).some((ipv4) => inside.check(ipv4, 'ipv4'));
}

/** A host name that always means this machine, whatever DNS says (RFC 6761). */
export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
