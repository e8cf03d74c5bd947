/**
 * Writes realistic generated data exports of any size, in the shapes of the
 * providers' exports, for tests and benchmarks:
 *
 *   node --import tsx scripts/generate-export.ts --provider openai|anthropic|deepseek|xai|google|microsoft|perplexity|mistral|meta|duckduckgo
 *        --size-mb N --out FILE [--format json|csv|txt|zip] [--split-mb M] [--seed S]
 *
 * The shapes are in scripts/generate-export/ (one module per provider; see
 * index.ts): ChatGPT `openai`, Claude `anthropic`, DeepSeek `deepseek`, Grok
 * `xai`, Gemini Takeout activity `google`, Copilot activity CSV `microsoft`,
 * Perplexity `perplexity`, Le Chat `mistral`, Meta AI `meta`, Duck.ai `duckduckgo`.
 * Everything comes from a seeded PRNG, so a seed always gives the same bytes. One
 * conversation is built at a time and streamed out, so memory stays small
 * whatever the size.
 *
 * --size-mb: JSON (or CSV) bytes to write, at least (the last conversation goes
 * past it). --format: the provider's bare file by default (csv for microsoft,
 * txt for duckduckgo — one conversation, whatever --size-mb —, json for the
 * others), or zip for the archive as the provider ships it:
 * ChatGPT's conversations-000.json… (each at most --split-mb, default 100) +
 * user.json + chat.html; Claude's conversations.json + users.json +
 * projects.json; DeepSeek's conversations.json + user.json; Grok's
 * ttl/30d/export_data/<uuid>/prod-grok-backend.json (+ prod-mc-auth-mgmt-api.json);
 * Gemini's Takeout/My Activity/Gemini Apps/My Activity.json (+
 * Takeout/archive_browser.html); Copilot's copilot-activity-history.csv (+ another
 * CSV); Duck.ai's duck.ai_<date>_<time>.txt, one per conversation. --seed: default 1. Prints one JSON line: file, bytes (of the file
 * written), conversations, messages, records (array elements or CSV rows),
 * provider, format, and for a zip jsonBytes (or csvBytes, txtBytes) and members.
 *
 * Importing this module has no side effects: tests use `generateConversations`
 * and `generateExportBytes`.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import {
  PROVIDERS,
  SHAPES,
  writeExport,
  ZIP_MAX_MB,
  type Format,
  type Provider,
  type WriteOptions,
} from './generate-export/index.ts';

export {
  conversations,
  generateConversations,
  generateExportBytes,
  PROVIDERS,
  SHAPES,
  type GenerateOptions,
  type Provider,
} from './generate-export/index.ts';

const USAGE =
  `usage: node --import tsx scripts/generate-export.ts --provider ${PROVIDERS.join('|')} --size-mb N --out FILE\n` +
  '         [--format json|csv|txt|zip] [--split-mb M] [--seed S]';

function parseCli(argv: string[]): WriteOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      provider: { type: 'string' },
      'size-mb': { type: 'string' },
      out: { type: 'string' },
      format: { type: 'string' },
      'split-mb': { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const fail = (message: string): never => {
    throw new Error(`${message}\n${USAGE}`);
  };
  const provider = values.provider as Provider;
  if (!PROVIDERS.includes(provider)) fail(`--provider must be one of ${PROVIDERS.join(', ')}`);
  const shape = SHAPES[provider];
  const format = (values.format ?? shape.layout.bare) as Format;
  if (format !== shape.layout.bare && format !== 'zip')
    fail(`--format must be ${shape.layout.bare} or zip for ${provider}`);
  const sizeMb = Number(values['size-mb']);
  if (!(sizeMb > 0) || !Number.isFinite(sizeMb)) fail('--size-mb must be a positive number');
  const splitMb = Number(values['split-mb']);
  if (!(splitMb > 0) || !Number.isFinite(splitMb)) fail('--split-mb must be a positive number');
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) fail('--seed must be an integer');
  if (!values.out) fail('--out is required');
  if (format === 'zip' && (sizeMb > ZIP_MAX_MB || splitMb > ZIP_MAX_MB))
    fail(`--format zip is limited to ${ZIP_MAX_MB} MiB (no Zip64)`);
  return { shape, format, sizeMb, splitMb, seed, out: values.out! };
}

async function main(): Promise<void> {
  let options: WriteOptions;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    const message = (error as Error).message;
    console.error(message.includes(USAGE) ? message : `${message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  // The live data is one conversation at a time, but at this allocation rate V8
  // grows the young generation to 32 MiB and lets the old one reach about four
  // times its live size before collecting: peak RSS ~130 MiB (tsx alone is ~75).
  // Holding both tight keeps it under 100 MiB for ~15% more CPU. Set here, in
  // the CLI only, so that importing the module changes nothing.
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  v8.setFlagsFromString('--heap-growing-percent=30');
  console.log(JSON.stringify(await writeExport(options)));
}

// No top-level await: the module stays importable from CommonJS-compiled callers too.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
