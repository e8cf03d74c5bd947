import { sql } from 'kysely';
import { createApp, createKey, listApps, listKeys, requireApp, revokeKey } from '../apps/apps.ts';
import type { Deps } from '../deps.ts';
import { LINK_SCOPE, signLink } from '../sdk/sign-link.ts';
import { requireUserRef } from '../users/user-ref.ts';
import { listWebhookDeliveries, retryWebhookDelivery, setWebhookEndpoint } from '../webhooks/endpoints.ts';

export class UsageError extends Error {}

export type Flags = Record<string, string | boolean | undefined>;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`Missing --${name}`);
  return value;
}

type CommandDeps = Pick<Deps, 'db' | 'clock' | 'random' | 'config'>;

/**
 * The operator's commands, by name. Each returns the one JSON object the command
 * prints; `backup` also needs to know the size of the file it wrote.
 */
export const commands: Record<string, (deps: CommandDeps, flags: Flags, io: { fileSize(path: string): number; fileExists(path: string): boolean }) => Promise<object>> = {
  'app create': (deps, flags) => createApp(deps, required(flags, 'name')),
  'app list': (deps) => listApps(deps),
  'key create': (deps, flags) => createKey(deps, required(flags, 'app')),
  'key list': (deps, flags) => listKeys(deps, required(flags, 'app')),
  'key revoke': (deps, flags) => revokeKey(deps, required(flags, 'app'), required(flags, 'key')),
  'webhook set': (deps, flags) => setWebhookEndpoint(deps, required(flags, 'app'), required(flags, 'url'), { newSecret: flags['new-secret'] === true }),
  'webhook list': (deps, flags) =>
    listWebhookDeliveries(deps, required(flags, 'app'), flags.status === undefined ? undefined : required(flags, 'status').split(',')),
  'webhook retry': (deps, flags) => retryWebhookDelivery(deps, required(flags, 'app'), required(flags, 'delivery')),
  link: async (deps, flags) => {
    // Every flag is checked before the database is asked, as the other commands do.
    const [appId, userRef] = [required(flags, 'app'), requireUserRef(required(flags, 'user'))];
    const purpose = required(flags, 'purpose') as 'connect' | 'manage';
    const expires = flags.expires === undefined ? undefined : Number(required(flags, 'expires'));
    const app = await requireApp(deps, appId);
    const options = { appId: app.id, userRef, scopes: [LINK_SCOPE] as [typeof LINK_SCOPE], purpose, baseUrl: deps.config.publicUrl };
    const url = await signLink(expires === undefined ? options : { ...options, expiresInSeconds: expires }, app.secret, deps.clock.now());
    return { url };
  },
  backup: async (deps, flags, io) => {
    const out = required(flags, 'out');
    if (io.fileExists(out)) throw new UsageError(`${out} already exists: choose a new file for the backup`);
    // VACUUM INTO writes a consistent copy while the server keeps serving.
    await sql`VACUUM INTO ${out}`.execute(deps.db);
    return { ok: true, bytes: io.fileSize(out) };
  },
};

export const USAGE = `Usage: parley <command> [flags]
  app create --name NAME
  app list
  key create --app ID
  key list --app ID
  key revoke --app ID --key KEYID
  webhook set --app ID --url URL [--new-secret]
  webhook list --app ID [--status pending,delivered,failed]
  webhook retry --app ID --delivery DELIVERYID
  link --app ID --user REF --purpose connect|manage [--expires SECONDS]
  backup --out FILE`;

/** Splits argv into the command name (one or two words) and its --flags. */
export function parseArgs(argv: string[]): { command: string; flags: Flags } {
  const words: string[] = [];
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const next = argv[i + 1];
    if (inline !== undefined) flags[name] = inline;
    else if (next !== undefined && !next.startsWith('--')) flags[name] = argv[++i];
    else flags[name] = true;
  }
  const two = words.slice(0, 2).join(' ');
  const command = two in commands ? two : words[0] ?? '';
  if (!(command in commands)) throw new UsageError(words.length ? `Unknown command: ${words.join(' ')}` : 'Missing command');
  if (words.length > command.split(' ').length) throw new UsageError(`Unexpected argument: ${words.at(-1)}`);
  return { command, flags };
}
