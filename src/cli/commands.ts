import { backupTo } from '../db/backup.ts';
import { copySqliteToPostgres } from '../db/copy-to-postgres.ts';
import type { Db } from '../db/database.ts';
import { createApp, createKey, listApps, listKeys, requireApp, revokeKey } from '../apps/apps.ts';
import type { Deps } from '../deps.ts';
import { LINK_SCOPE, signLink, type SignLinkOptions } from '../../sdk/src/sign-link.ts';
import { requireUserRef } from '../users/user-ref.ts';
import { listWebhookDeliveries, retryWebhookDelivery, setWebhookEndpoint } from '../webhooks/endpoints.ts';

export class UsageError extends Error {}

export type Flags = Record<string, string | boolean | undefined>;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`Missing --${name}`);
  return value;
}

type CommandDeps = Pick<Deps, 'db' | 'clock' | 'random' | 'config' | 'resolveHost'>;

/** What commands reach beyond the database they run on: files, and the databases a copy goes between. */
export interface CommandIo {
  fileSize(path: string): number;
  fileExists(path: string): boolean;
  openSqlite(path: string): Db;
  openPostgres(url: string): Promise<Db>;
}

/** The one JSON object each operator command prints, by the command's name. */
export const commands: Record<string, (deps: CommandDeps, flags: Flags, io: CommandIo) => Promise<object>> = {
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
    const locale = flags.locale === undefined ? undefined : required(flags, 'locale');
    const app = await requireApp(deps, appId);
    const options: SignLinkOptions = { appId: app.id, userRef, scopes: [LINK_SCOPE], purpose, baseUrl: deps.config.publicUrl };
    if (expires !== undefined) options.expiresInSeconds = expires;
    if (locale !== undefined) options.locale = locale;
    const url = await signLink(options, app.secret, deps.clock.now());
    return { url };
  },
  backup: async (deps, flags, io) => {
    const out = required(flags, 'out');
    if (io.fileExists(out)) throw new UsageError(`${out} already exists: choose a new file for the backup`);
    await backupTo(deps.db, out);
    return { ok: true, bytes: io.fileSize(out) };
  },
  'migrate-to-postgres': async (deps, flags, io) => {
    const url = required(flags, 'url');
    if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError('--url must be a postgres:// URL');
    const path = deps.config.databasePath;
    if (!io.fileExists(path)) throw new UsageError(`No SQLite file at ${path}: set DATABASE_PATH to the file to copy`);
    const source = io.openSqlite(path);
    try {
      const target = await io.openPostgres(url);
      try {
        return { ok: true, ...(await copySqliteToPostgres(source, target, path)) };
      } finally {
        await target.destroy();
      }
    } finally {
      await source.destroy();
    }
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
  link --app ID --user REF --purpose connect|manage [--expires SECONDS] [--locale de|fr|es|ja|zh-CN|…]
  backup --out FILE
  migrate-to-postgres --url postgres://…`;

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
