import { backupTo } from '../db/backup.ts';
import { copySqliteToPostgres } from '../db/copy-to-postgres.ts';
import type { Db } from '../db/database.ts';
import { createApp, createKey, listApps, listKeys, requireApp, revokeKey } from '../apps/apps.ts';
import { MAX_LOGO_BYTES, registeredReturnUrl, updateAppPageSettings, type AppPageChanges } from '../apps/page-settings.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { LINK_SCOPE, signLink, type SignLinkOptions } from '../../sdk/src/sign-link.ts';
import { requireUserRef } from '../users/user-ref.ts';
import { listWebhookDeliveries, retryWebhookDelivery, setWebhookEndpoint } from '../webhooks/endpoints.ts';

export class UsageError extends Error {}

/** A flag's value; `true` for one without a value; every value of one given more than once. */
export type Flags = Record<string, string | boolean | string[] | undefined>;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (Array.isArray(value)) throw new UsageError(`--${name} given more than once`);
  if (typeof value !== 'string' || value === '') throw new UsageError(`Missing --${name}`);
  return value;
}

/** A flag of `app update`: undefined when left out, null when "" (remove the setting), else its value. */
function setting(flags: Flags, name: string): string | null | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new UsageError(`--${name} given more than once`);
  if (typeof value !== 'string') throw new UsageError(`--${name} needs a value ("" removes it)`);
  return value === '' ? null : value;
}

/** Every value of a repeatable flag; `--return-origin ""` alone means none. */
function settings(flags: Flags, name: string): string[] | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  if (values.some((one) => typeof one !== 'string')) throw new UsageError(`--${name} needs a value ("" removes them all)`);
  return (values as string[]).filter((one) => one !== '');
}

type CommandDeps = Pick<Deps, 'db' | 'clock' | 'random' | 'config'>;

/** What commands reach beyond the database they run on: files, and the databases a copy goes between. */
export interface CommandIo {
  fileSize(path: string): number;
  fileExists(path: string): boolean;
  readFile(path: string): Uint8Array;
  openSqlite(path: string): Db;
  openPostgres(url: string): Promise<Db>;
}

/** The one JSON object each operator command prints, by the command's name. */
export const commands: Record<string, (deps: CommandDeps, flags: Flags, io: CommandIo) => Promise<object>> = {
  'app create': (deps, flags) => createApp(deps, required(flags, 'name')),
  'app list': (deps) => listApps(deps),
  'app update': async (deps, flags, io) => {
    const appId = required(flags, 'app');
    const changes: AppPageChanges = {};
    const [displayName, accentColor, privacyUrl, logo] = ['display-name', 'accent-color', 'privacy-url', 'logo'].map((name) => setting(flags, name));
    if (displayName !== undefined) changes.displayName = displayName;
    if (accentColor !== undefined) changes.accentColor = accentColor;
    if (privacyUrl !== undefined) changes.privacyUrl = privacyUrl;
    const returnOrigins = settings(flags, 'return-origin');
    if (returnOrigins !== undefined) changes.returnOrigins = returnOrigins;
    if (logo === null) changes.logo = null;
    else if (logo !== undefined) {
      if (!io.fileExists(logo)) throw new UsageError(`No file at ${logo}`);
      // Refused before it is read: a wrong path to a large file costs nothing.
      if (io.fileSize(logo) > MAX_LOGO_BYTES) throw new ApiError('logoTooLarge');
      changes.logo = io.readFile(logo);
    }
    return updateAppPageSettings(deps, appId, changes);
  },
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
    const returnUrl = flags['return-url'] === undefined ? undefined : required(flags, 'return-url');
    const app = await requireApp(deps, appId);
    const options: SignLinkOptions = { appId: app.id, userRef, scopes: [LINK_SCOPE], purpose, baseUrl: deps.config.publicUrl };
    if (expires !== undefined) options.expiresInSeconds = expires;
    if (locale !== undefined) options.locale = locale;
    if (returnUrl !== undefined) {
      // The pages would refuse it: say so now, not when the person opens the link.
      if ((await registeredReturnUrl(deps, app.id, returnUrl)) === undefined) throw new ApiError('invalidReturnUrl');
      options.returnUrl = returnUrl;
    }
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
  app update --app ID [--display-name NAME] [--logo FILE.png|.jpg|.webp] [--accent-color #RRGGBB]
                      [--privacy-url URL] [--return-origin https://host …]   ("" removes a setting)
  key create --app ID
  key list --app ID
  key revoke --app ID --key KEYID
  webhook set --app ID --url URL [--new-secret]
  webhook list --app ID [--status pending,delivered,failed]
  webhook retry --app ID --delivery DELIVERYID
  link --app ID --user REF --purpose connect|manage [--expires SECONDS] [--locale de|fr|es|ja|zh-CN|…] [--return-url URL]
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
    const value = inline !== undefined ? inline : next !== undefined && !next.startsWith('--') ? argv[++i]! : true;
    const earlier = flags[name];
    if (earlier === undefined) flags[name] = value;
    else flags[name] = [...(Array.isArray(earlier) ? earlier : [earlier as string]), value as string];
  }
  const two = words.slice(0, 2).join(' ');
  const command = two in commands ? two : words[0] ?? '';
  if (!(command in commands)) throw new UsageError(words.length ? `Unknown command: ${words.join(' ')}` : 'Missing command');
  if (words.length > command.split(' ').length) throw new UsageError(`Unexpected argument: ${words.at(-1)}`);
  return { command, flags };
}
