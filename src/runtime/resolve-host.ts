import { lookup } from 'node:dns/promises';

/** Every address a host name resolves to, by the system's resolver (node:dns, which Deno and Bun provide too). */
export async function resolveHost(hostname: string): Promise<string[]> {
  return (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
}
