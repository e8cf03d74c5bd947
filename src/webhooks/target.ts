import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';

/**
 * Where webhooks may be sent. A self-hosted app's receiver is often on a
 * private address (the same host, a private network), so by default any is
 * allowed; WEBHOOK_ALLOW_PRIVATE=false refuses loopback, private, link-local
 * (the cloud metadata service among them) and other non-public addresses,
 * after resolving the host name, when the URL is set and again before each
 * attempt (a name may come to resolve elsewhere).
 */

/** A URL's `user:password@` is never sent by fetch, and would be shown wherever the URL is. */
export const hasCredentials = (url: URL): boolean => url.username !== '' || url.password !== '';

/** Text (an error message) with any URL's `user:password@` taken out. */
export const withoutCredentials = (text: string): string => text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1');

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** IPv4 ranges that are not the public internet: [first octets, prefix length]. */
const PRIVATE_IPV4: Array<[number[], number]> = [
  [[0], 8], // "this" network
  [[10], 8], // private
  [[100, 64], 10], // carrier-grade NAT
  [[127], 8], // loopback
  [[169, 254], 16], // link-local, the metadata service (169.254.169.254) among them
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // protocol assignments
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[224], 4], // multicast
  [[240], 4], // reserved, broadcast
];

function isPrivateIpv4(address: string): boolean {
  const octets = IPV4.exec(address)!.slice(1).map(Number);
  const value = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
  return PRIVATE_IPV4.some(([start, bits]) => {
    const base = start.concat([0, 0, 0, 0]).slice(0, 4);
    const from = ((base[0]! << 24) | (base[1]! << 16) | (base[2]! << 8) | base[3]!) >>> 0;
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (value & mask) === (from & mask);
  });
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail as two). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const octets = v4[1]!.split('.').map(Number);
    text =
      text.slice(0, -v4[1]!.length) +
      `${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const groups =
    tail === undefined
      ? parse(head)
      : [...parse(head), ...Array(8 - parse(head).length - parse(tail).length).fill(0), ...parse(tail)];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : undefined;
}

/** Whether an IP address (v4 or v6, as DNS or a URL gives it) is anything but a public one; one that is not an address counts as private. */
export function isPrivateAddress(address: string): boolean {
  if (IPV4.test(address)) return isPrivateIpv4(address);
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const [first] = groups as [number];
  const embeddedIpv4 = () => `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible) are the IPv4 address.
  if (groups.slice(0, 5).every((group) => group === 0) && (groups[5] === 0xffff || groups[5] === 0)) {
    return groups[5] === 0 && groups[6] === 0 ? true : isPrivateIpv4(embeddedIpv4());
  }
  return (
    (first & 0xfe00) === 0xfc00 || // unique local, AWS's IPv6 metadata service (fd00:ec2::254) among them
    (first & 0xffc0) === 0xfe80 || // link-local
    (first & 0xff00) === 0xff00 || // multicast
    (first === 0x64 && groups[1] === 0xff9b) || // NAT64 of an IPv4 address
    (first === 0x2001 && groups[1] === 0xdb8) // documentation
  );
}

type TargetDeps = Pick<Deps, 'config' | 'resolveHost'>;

/**
 * Why WEBHOOK_ALLOW_PRIVATE=false refuses this URL now, or undefined when it
 * is allowed: a host that resolves to a private address, or not at all.
 */
export async function refusedTarget(deps: TargetDeps, url: URL): Promise<string | undefined> {
  if (deps.config.webhookAllowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = IPV4.test(host) || host.includes(':');
  let addresses: string[];
  try {
    addresses = literal ? [host] : await (deps.resolveHost ?? noResolver)(host);
  } catch (error) {
    return `${host} does not resolve (${error instanceof Error ? error.message : String(error)})`;
  }
  const blocked = addresses.find(isPrivateAddress);
  if (addresses.length === 0 || blocked !== undefined)
    return `${host} is a private address (${blocked ?? 'none'}): WEBHOOK_ALLOW_PRIVATE=false`;
  return undefined;
}

const noResolver = async (): Promise<string[]> => {
  throw new Error('no resolver in this runtime');
};

/** Checks a webhook URL being set: no credentials in it, and an address WEBHOOK_ALLOW_PRIVATE allows. */
export async function checkWebhookTarget(deps: TargetDeps, url: URL): Promise<void> {
  if (hasCredentials(url)) throw new ParleyError('webhookUrlCredentials');
  if (await refusedTarget(deps, url)) throw new ParleyError('privateWebhookUrl');
}
