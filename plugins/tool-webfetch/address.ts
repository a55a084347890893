import { BlockList, isIP } from 'node:net';

/**
 * Addresses that are not the public internet: loopback, private networks, link-local (cloud
 * metadata at 169.254.169.254), carrier-grade NAT, multicast, reserved and unspecified ranges.
 * A fetch there reaches the user's own machine or network, not "the web". Made on first use, as
 * the resolver is: a run that fetches nothing pays for neither.
 */
let notPublic: BlockList | undefined;
function notPublicList(): BlockList {
  if (notPublic) return notPublic;
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const)
    list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
    ['2001:db8::', 32],
    ['100::', 64],
  ] as const)
    list.addSubnet(net, prefix, 'ipv6');
  return (notPublic = list);
}

/** The IPv4 address an IPv6 address carries (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::`, 6to4 `2002:`, compatible `::a.b.c.d`), if any. */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zero(0, 5) && groups[5] === 0xffff) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  if (zero(0, 6) && (groups[6]! !== 0 || groups[7]! > 1)) return v4(groups[6]!, groups[7]!);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (dotted IPv4 tail included), or undefined. */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split('.').map(Number);
    text = text.slice(0, -dotted[1]!.length) + `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const groups = [...left, ...Array(missing).fill('0'), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** True for an address on the public internet; anything unparsable counts as not public. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !notPublicList().check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIpv4(address);
  if (v4 !== undefined) return isPublicAddress(v4);
  return !notPublicList().check(address, 'ipv6');
}

/** A URL's hostname as a connection uses it: IPv6 without brackets. */
export function connectHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** What a host name resolved to, once: the permission check and the connection use the same answer. */
export interface HostPin {
  host: string;
  addresses: ResolvedAddress[];
}

/** Resolves a host (an IP literal resolves to itself); gives up after `timeoutMs`. */
export async function resolveHost(host: string, timeoutMs: number): Promise<ResolvedAddress[]> {
  const family = isIP(host);
  if (family) return [{ address: host, family: family as 4 | 6 }];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`looking up ${host} took longer than ${timeoutMs} ms`), { code: 'ETIMEOUT' })), timeoutMs);
  });
  try {
    // The resolver loads on first use: loading it starts c-ares, which reads the system's resolver files.
    const { lookup } = process.getBuiltinModule('node:dns/promises');
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } finally {
    clearTimeout(timer);
  }
}

/** The first address of a pin that is not public, if any. */
export function privateAddressOf(addresses: readonly ResolvedAddress[]): string | undefined {
  return addresses.find((a) => !isPublicAddress(a.address))?.address;
}
