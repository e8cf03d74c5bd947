import { LINK_SCOPE, signLink, type SignLinkOptions } from 'parley-sdk';
import * as v from 'valibot';
import { backupTo } from '../db/backup.ts';
import { copySqliteToPostgres } from '../db/copy-to-postgres.ts';
import { partFilesBeside } from '../db/part-files.ts';
import { movePartFilesIntoDatabase } from '../uploads/resumable-uploads.ts';
import type { Db } from '../db/database.ts';
import { createKey, listApps, listKeys, onboardApp, requireApp, revokeKey } from '../apps/apps.ts';
import {
  MAX_LOGO_BYTES,
  registeredReturnUrl,
  updateAppPageSettings,
  type AppPageChanges,
} from '../apps/page-settings.ts';
import { purgeApp } from '../conversations/purge.ts';
import type { Deps } from '../deps.ts';
import { ParleyError, parseInput } from '../errors.ts';
import { createAgentToken } from '../agents/agent-tokens.ts';
import { AgentTokenBody } from '../api/schemas.ts';
import { PostgresUrl } from '../urls.ts';
import { requireUserRef } from '../users/user-ref.ts';
import {
  listWebhookDeliveries,
  retryWebhookDelivery,
  sendTestWebhook,
  setWebhookEndpoint,
} from '../webhooks/endpoints.ts';

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
  if (values.some((one) => typeof one !== 'string'))
    throw new UsageError(`--${name} needs a value ("" removes them all)`);
  return (values as string[]).filter((one) => one !== '');
}

type CommandDeps = Pick<Deps, 'db' | 'clock' | 'random' | 'config' | 'resolveHost'>;

/** What commands reach beyond the database they run on: files, and the databases a copy goes between. */
export interface CommandIo {
  fileSize(path: string): number;
  fileExists(path: string): boolean;
  readFile(path: string): Uint8Array;
  openSqlite(path: string): Promise<Db>;
  openPostgres(url: string): Promise<Db>;
  /**
   * SQLite's request counts beside the database (rate-buckets.ts), opened, and
   * created if missing, only by the command that changes them (`app delete`);
   * undefined where they live in the database itself.
   */
  counters(): Promise<Db | undefined>;
}

/** An operator command: its flags and what it does (for help), and what it runs to make the one JSON object it prints. */
export interface Command {
  flags: string;
  does: string;
  run(deps: CommandDeps, flags: Flags, io: CommandIo): Promise<object>;
}

/** The operator commands, by name. */
export const commands: Record<string, Command> = {
  'app create': {
    flags: '--name NAME',
    does: 'Creates an app. Prints its appId, its appSecret (signs hosted-page links) and its first apiKey, shown only now.',
    run: (deps, flags) => onboardApp(deps, required(flags, 'name')),
  },
  'app list': { flags: '', does: 'Lists the apps, with how many active keys each has.', run: (deps) => listApps(deps) },
  'app update': {
    flags:
      '--app ID [--display-name NAME] [--logo FILE.png|.jpg|.webp] [--accent-color #RRGGBB] [--privacy-url URL] [--return-origin https://host …]',
    does: 'Sets how the hosted pages show the app and where they may return to; "" removes a setting, --return-origin may repeat and replaces the list.',
    run: async (deps, flags, io) => {
      const appId = required(flags, 'app');
      const changes: AppPageChanges = {};
      const [displayName, accentColor, privacyUrl, logo] = ['display-name', 'accent-color', 'privacy-url', 'logo'].map(
        (name) => setting(flags, name),
      );
      if (displayName !== undefined) changes.displayName = displayName;
      if (accentColor !== undefined) changes.accentColor = accentColor;
      if (privacyUrl !== undefined) changes.privacyUrl = privacyUrl;
      const returnOrigins = settings(flags, 'return-origin');
      if (returnOrigins !== undefined) changes.returnOrigins = returnOrigins;
      if (logo === null) changes.logo = null;
      else if (logo !== undefined) {
        if (!io.fileExists(logo)) throw new UsageError(`No file at ${logo}`);
        // Refused before it is read: a wrong path to a large file costs nothing.
        if (io.fileSize(logo) > MAX_LOGO_BYTES) throw new ParleyError('logoTooLarge');
        changes.logo = io.readFile(logo);
      }
      return updateAppPageSettings(deps, appId, changes);
    },
  },
  'app delete': {
    flags: '--app ID --yes',
    does: 'Deletes the app and everything of it: its users, connections, conversations and attachments, keys, settings and webhook deliveries. Prints what it deleted; cannot be undone.',
    run: async (deps, flags, io) => {
      const appId = required(flags, 'app');
      if (flags.yes !== true)
        throw new UsageError(
          `This deletes app ${appId} with all its users, connections, conversations, attachments, keys, settings and webhook deliveries, for good: add --yes to do it`,
        );
      return { ok: true, deleted: await purgeApp({ ...deps, counters: await io.counters() }, appId) };
    },
  },
  'agent-token create': {
    flags: '--app ID --user USER_REF [--expires-in SECONDS]',
    does: 'Mints a token that reads only that user’s data over /mcp, read-only, for --expires-in seconds (at most 3600, default 900). Prints the token (shown only now) and its expiresAt.',
    run: async (deps, flags) => {
      const appId = required(flags, 'app');
      const userRef = requireUserRef(required(flags, 'user'));
      const body = parseInput(AgentTokenBody, {
        userRef,
        ...(flags['expires-in'] === undefined ? {} : { expiresInSeconds: Number(required(flags, 'expires-in')) }),
      });
      await requireApp(deps, appId);
      return createAgentToken(deps, { appId, usedAppSecret: false }, body);
    },
  },
  'key create': {
    flags: '--app ID',
    does: 'Adds an API key to the app; prints it, shown only now.',
    run: (deps, flags) => createKey(deps, required(flags, 'app')),
  },
  'key list': {
    flags: '--app ID',
    does: "Lists the app's keys: id, first characters, when made, last used and revoked.",
    run: (deps, flags) => listKeys(deps, required(flags, 'app')),
  },
  'key revoke': {
    flags: '--app ID --key KEYID',
    does: 'Revokes a key; the API refuses it from the next request.',
    run: (deps, flags) => revokeKey(deps, required(flags, 'app'), required(flags, 'key')),
  },
  'webhook set': {
    flags: '--app ID --url URL [--new-secret]',
    does: "Sets where the app's webhooks go; prints the signing secret (a new one with --new-secret).",
    run: (deps, flags) =>
      setWebhookEndpoint(deps, required(flags, 'app'), required(flags, 'url'), {
        newSecret: flags['new-secret'] === true,
      }),
  },
  'webhook list': {
    flags: '--app ID [--status pending,delivered,failed]',
    does: "Lists the app's webhook deliveries, optionally only those in the given states.",
    run: (deps, flags) =>
      listWebhookDeliveries(
        deps,
        required(flags, 'app'),
        flags.status === undefined ? undefined : required(flags, 'status').split(','),
      ),
  },
  'webhook retry': {
    flags: '--app ID --delivery DELIVERYID',
    does: 'Sends a failed delivery again.',
    run: (deps, flags) => retryWebhookDelivery(deps, required(flags, 'app'), required(flags, 'delivery')),
  },
  'webhook test': {
    flags: '--app ID',
    does: `Sends one signed webhook.test event to the app's endpoint now (not retried, not listed); prints the receiver's status and how long it took, or what failed (then "ok":false, exit code 1).`,
    run: (deps, flags) => sendTestWebhook(deps, required(flags, 'app')),
  },
  link: {
    flags:
      '--app ID --user REF --purpose connect|manage [--expires SECONDS] [--locale de|fr|es|ja|zh-CN|…] [--return-url URL]',
    does: 'Signs a single-use link to a hosted page for one user, at PUBLIC_URL (else http://localhost:PORT); valid 15 minutes unless --expires says less.',
    run: async (deps, flags) => {
      // Every flag is checked before the database is asked, as the other commands do.
      const [appId, userRef] = [required(flags, 'app'), requireUserRef(required(flags, 'user'))];
      const purpose = required(flags, 'purpose') as 'connect' | 'manage';
      const expires = flags.expires === undefined ? undefined : Number(required(flags, 'expires'));
      const locale = flags.locale === undefined ? undefined : required(flags, 'locale');
      const returnUrl = flags['return-url'] === undefined ? undefined : required(flags, 'return-url');
      const app = await requireApp(deps, appId);
      const options: SignLinkOptions = {
        appId: app.id,
        userRef,
        scopes: [LINK_SCOPE],
        purpose,
        baseUrl: deps.config.publicUrl,
      };
      if (expires !== undefined) options.expiresInSeconds = expires;
      if (locale !== undefined) options.locale = locale;
      if (returnUrl !== undefined) {
        // The pages would refuse it: say so now, not when the person opens the link.
        if ((await registeredReturnUrl(deps, app.id, returnUrl)) === undefined)
          throw new ParleyError('invalidReturnUrl');
        options.returnUrl = returnUrl;
      }
      const url = await signLink(options, app.secret, deps.clock.now());
      return { url };
    },
  },
  backup: {
    flags: '--out FILE',
    does: 'Writes a consistent copy of the SQLite database to FILE (a new file) while the server runs. On PostgreSQL, use pg_dump.',
    run: async (deps, flags, io) => {
      const out = required(flags, 'out');
      if (io.fileExists(out)) throw new UsageError(`${out} already exists: choose a new file for the backup`);
      await backupTo(deps.db, out);
      return { ok: true, bytes: io.fileSize(out) };
    },
  },
  'migrate-to-postgres': {
    flags: '--url postgres://…',
    does: 'Copies the SQLite database at DATABASE_PATH into an empty PostgreSQL database; resumable, verified by counts.',
    run: async (deps, flags, io) => {
      const url = required(flags, 'url');
      if (!v.is(PostgresUrl, url)) throw new UsageError('--url must be a postgres:// URL');
      const path = deps.config.databasePath;
      if (!io.fileExists(path))
        throw new UsageError(`No SQLite file at ${path}: set DATABASE_PATH to the file to copy`);
      const source = await io.openSqlite(path);
      try {
        // The servers on PostgreSQL have no folder beside a file: open uploads' parts go into the database first.
        await movePartFilesIntoDatabase({ db: source, clock: deps.clock }, partFilesBeside(path));
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
  },
};

const SERVE: Pick<Command, 'flags' | 'does'> = {
  flags: '',
  does: 'Runs the server (the default, without a command), configured by environment variables: PORT, HOST, PUBLIC_URL, DATABASE_PATH or DATABASE_URL, and the rest the README lists.',
};

/** The commands of a group (`app`, `key`, `webhook`): those whose name is the group's word and one more. */
const commandsOfGroup = (group: string) => Object.keys(commands).filter((name) => name.startsWith(`${group} `));

/** Usage for everything, or for the one command or group `name` (undefined if there is no such thing). */
export function usage(name?: string): string | undefined {
  if (name !== undefined) {
    const command = name === 'serve' ? SERVE : commands[name];
    if (command) return `Usage: parley ${[name, command.flags].filter(Boolean).join(' ')}\n\n${command.does}`;
    const group = commandsOfGroup(name);
    if (group.length === 0) return undefined;
    return [
      `Usage: parley ${name} <${group.map((one) => one.slice(name.length + 1)).join('|')}> [flags]`,
      ...group.flatMap((one) => [
        '',
        `  ${[one, commands[one]!.flags].filter(Boolean).join(' ')}`,
        `    ${commands[one]!.does}`,
      ]),
    ].join('\n');
  }
  const lines = [['serve', SERVE.flags], ...Object.entries(commands).map(([name, { flags }]) => [name, flags])].map(
    ([name, flags]) => `  ${[name, flags].filter(Boolean).join(' ')}`,
  );
  return [
    'Usage: parley [command] [flags]',
    '',
    'Without a command Parley serves. The other commands work on the database the server uses',
    '(DATABASE_URL, or DATABASE_PATH: safe while it runs) and print one JSON object on stdout',
    '(exit code 1 when it says "ok":false), or {"error"} on stderr with exit code 1.',
    '',
    ...lines,
    '  help [command]',
    '',
    'parley help COMMAND (or parley COMMAND --help) says what one command does.',
  ].join('\n');
}

/** What a command line asks for: the server, help (on one command or all), or an operator command with its flags. */
export type Invocation = { serve: true } | { help: string | undefined } | { command: string; flags: Flags };

/** Reads argv: the command name (one or two words, or none: serve) and its --flags; `help`, --help and -h ask for usage. */
export function parseArgs(argv: string[]): Invocation {
  const words: string[] = [];
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h') {
      flags.help = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const next = argv[i + 1];
    const value =
      inline !== undefined
        ? inline
        : name !== 'help' && next !== undefined && !next.startsWith('--')
          ? argv[++i]!
          : true;
    const earlier = flags[name];
    if (earlier === undefined) flags[name] = value;
    else flags[name] = [...(Array.isArray(earlier) ? earlier : [earlier as string]), value as string];
  }
  const asksHelp = flags.help !== undefined;
  if (words[0] === 'help' || (asksHelp && words.length === 0)) {
    const topic = words.slice(words[0] === 'help' ? 1 : 0).join(' ') || undefined;
    if (topic !== undefined && usage(topic) === undefined) throw new UsageError(`Unknown command: ${topic}`);
    return { help: topic };
  }
  if (argv.length === 0) return { serve: true };
  const two = words.slice(0, 2).join(' ');
  const command = two in commands ? two : (words[0] ?? '');
  if (words.length === 1 && commandsOfGroup(command).length > 0) {
    if (asksHelp) return { help: command };
    throw new UsageError(
      `Missing command after ${command}: one of ${commandsOfGroup(command).join(', ')} (parley help ${command})`,
    );
  }
  if (command !== 'serve' && !(command in commands))
    throw new UsageError(words.length ? `Unknown command: ${words.join(' ')}` : 'Missing command');
  if (words.length > command.split(' ').length) throw new UsageError(`Unexpected argument: ${words.at(-1)}`);
  if (asksHelp) return { help: command };
  // The server takes its settings from the environment only, so a flag here is a mistake.
  if (command === 'serve') {
    const flag = Object.keys(flags)[0];
    if (flag !== undefined)
      throw new UsageError(`Unexpected argument: --${flag} (serve reads its settings from environment variables)`);
    return { serve: true };
  }
  return { command, flags };
}
