/**
 * Writes realistic generated ChatGPT (`openai`) or Claude (`anthropic`) data
 * exports of any size, for tests and benchmarks.
 *
 *   node --import tsx scripts/generate-export.ts --provider openai|anthropic --size-mb N --out FILE
 *        [--format json|zip] [--split-mb M] [--seed S]
 *
 * The shapes mirror the providers' real export shapes (see test/fixtures/):
 * ChatGPT conversations are a `mapping` tree (null-message root, hidden system
 * node, sometimes a user_editable_context node, edit and regenerate branches,
 * code/execution_output pairs, web searches, images, reasoning `thoughts`) with
 * the metadata noise of the real thing; Claude conversations are flat
 * `chat_messages` with text, thinking, tool_use/tool_result blocks, attachments
 * and files. Everything comes from a seeded PRNG, so a seed always gives the
 * same bytes. One conversation is built at a time and streamed out, so memory
 * stays small whatever the size.
 *
 * --size-mb: JSON bytes to write, at least (the last conversation goes past it).
 * --format zip: the provider's archive instead of the bare JSON array — ChatGPT's
 * conversations-000.json… (each at most --split-mb, default 100) + user.json +
 * chat.html, or Claude's conversations.json + users.json + projects.json.
 * --seed: default 1. Prints one JSON line: file, bytes (of the file written),
 * conversations, messages, provider, format, and for a zip jsonBytes.
 *
 * Importing this module has no side effects: tests use `generateConversations`
 * and `generateExportBytes`.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { Zip, ZipDeflate } from 'fflate';

export type Provider = 'openai' | 'anthropic';
type Json = Record<string, unknown>;

const MIB = 1024 * 1024;
/** Conversations start here (2024-03-01T00:00:00Z) and move forward. */
const START_SECONDS = 1709251200;
/** Zip entries carry this time, so a zip is as deterministic as the JSON. */
const ZIP_MTIME = new Date(Date.UTC(2025, 0, 1));
const ZIP_LEVEL = 6;
const ZIP_BATCH = 64 * 1024;
/** fflate writes no Zip64: stay well below the 4 GiB limits of a plain zip. */
const ZIP_MAX_MB = 3900;

// ---------------------------------------------------------------- randomness

/** mulberry32: tiny, fast, and good enough for test data. */
class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  u32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** [0, 1) */
  next(): number {
    return this.u32() / 4294967296;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** Between min and max, skewed towards min (most messages are short, a few are long). */
  skewed(min: number, max: number, skew = 2): number {
    return Math.round(min * Math.pow(max / min, Math.pow(this.next(), skew)));
  }
  /** Exponentially distributed with the given mean. */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }
  /** Eight hex digits. */
  hex8(): string {
    const x = this.u32();
    return HEX[x >>> 24]! + HEX[(x >>> 16) & 255]! + HEX[(x >>> 8) & 255]! + HEX[x & 255]!;
  }
  /** Four hex digits. */
  hex4(): string {
    const x = this.u32();
    return HEX[x >>> 24]! + HEX[(x >>> 16) & 255]!;
  }
  hex16(): string {
    return this.hex8() + this.hex8();
  }
  hex32(): string {
    return this.hex8() + this.hex8() + this.hex8() + this.hex8();
  }
  /** A version 4 UUID. */
  uuid(): string {
    const x = this.u32();
    const version = `4${HEX[(x >>> 16) & 15]!.charAt(1)}${HEX[(x >>> 8) & 255]!}`;
    const variant = `${'89ab'.charAt(x & 3)}${HEX[x >>> 24]!.charAt(1)}${HEX[(x >>> 2) & 255]!}`;
    return `${this.hex8()}-${this.hex4()}-${version}-${variant}-${this.hex4()}${this.hex8()}`;
  }
  base62(chars: number): string {
    let out = '';
    for (let i = 0; i < chars; i++) out += BASE62[this.u32() % 62];
    return out;
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

// ---------------------------------------------------------------- vocabulary

const COMMON = (
  'the of and to a in is it you that for on with as are this be at or have from by not but what all were when we ' +
  'there can an your which their if do will each about how up out them then she many some so these would other into ' +
  'has more her two like him see time could no make than first been its who now people my made over did down only way ' +
  'find use may water long little very after words called just where most know get through back much before go good ' +
  'new write our used me man too any day same right look think also around another came come work three word must ' +
  'because does part even place well such here take why things help put years different away again off went old ' +
  'number great tell men say small every found still between name should home big give air line set own under read ' +
  'last never us left end along while might next sound below saw something thought both few those always looked show ' +
  'large often together asked house world going want school important until form food keep children feet land side ' +
  'without boy once animals life enough took sometimes four head above kind began almost live page got earth need'
).split(' ');

const TECHNICAL = (
  'function variable database query index server client request response cache latency throughput memory buffer ' +
  'stream parser token schema migration deploy cluster container kubernetes docker python typescript javascript rust ' +
  'async await promise callback thread process kernel socket endpoint payload header cookie session auth oauth jwt ' +
  'webhook retry timeout backoff queue worker scheduler cron regex unicode utf-8 json yaml csv sqlite postgres redis ' +
  'benchmark profile heap stack pointer closure iterator generator interface module package dependency lockfile ' +
  'compiler linter formatter test fixture mock assertion coverage pipeline artifact release semver changelog ' +
  'recipe garden budget travel itinerary vocabulary grammar essay paragraph summary outline hypothesis experiment ' +
  'dataset regression gradient model embedding vector matrix tensor inference training validation accuracy'
).split(' ');

/** Words of other scripts and accents, for conversations that are not in English. */
const FOREIGN: readonly (readonly string[])[] = [
  (
    'café naïve résumé façade déjà vu crème brûlée jalapeño señor mañana pingüino corazón canción niño año árbol ' +
    'interpretación pintura después también está qué cómo dónde über schön Straße Grüße Zürich Mädchen Ångström ' +
    'smörgåsbord Łódź źródło İstanbul çalışma œuvre cœur fiancée São Paulo coração informação'
  ).split(' '),
  '日本語 東京 ありがとう こんにちは 勉強 問題 データベース 中文 你好 世界 学习 数据 计算机 谢谢 한국어 안녕하세요 데이터 감사합니다 서울'.split(' '),
  'Привет спасибо данные Москва программа вопрос ответ Ελληνικά καλημέρα ευχαριστώ δεδομένα Αθήνα שלום תודה مرحبا شكرا नमस्ते धन्यवाद'.split(' '),
];

const EMOJI = ['🙂', '😅', '🚀', '🎉', '👍🏽', '🔥', '✅', '❌', '⚠️', '💡', '📊', '🧠', '👨‍👩‍👧', '🇫🇷', '🇯🇵', '🤖', '☕', '🎨'];

/** Tokens that make JSON escaping work: quotes, backslashes, tabs, markup, odd punctuation. */
const SPECIAL = [
  '"quoted"',
  "it's",
  'C:\\Users\\dev\\Documents\\notes.txt',
  '\\\\fileserver\\share\\',
  'a\\b',
  '"\\"',
  '\\n',
  '\\u00e9',
  'regex \\d+\\.\\d*',
  '<div class="note">',
  '&amp;',
  '{"key": "value"}',
  '`inline code`',
  "'single'",
  'tab\there',
  '50%',
  '#hashtag',
  '@mention',
  'x < y && y > z',
  '—',
  '…',
  '“curly”',
  '‘quote’',
  '→',
  '≤',
  '±0.5',
  '°C',
  '€12.50',
  '½',
  'µs',
  '∑',
];

const TLDS = ['com', 'org', 'io', 'dev', 'net', 'co.uk', 'de'];
const SITES = ['wikipedia', 'stackoverflow', 'github', 'medium', 'reddit', 'developer.mozilla', 'docs.python', 'nytimes', 'bbc', 'arxiv'];

// ---------------------------------------------------------------- text

const IDENTS = TECHNICAL.map((word) => word.replace(/[^a-z]/g, '')).filter(Boolean);
const SLUGS = TECHNICAL.map((word) => word.replace(/[^a-z0-9-]/g, ''));
const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Word tables, one per language mix: a word is one table lookup, which keeps
 * generation fast. Each category fills its share of the table's slots.
 */
const TABLE_BITS = 12;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
/** Share of foreign words: English with a sprinkle, mostly another language, almost only. */
const FOREIGN_SHARES = [0.004, 0.45, 0.8] as const;
const wordTables = new Map<number, readonly string[]>();

function wordTable(foreign: number, share: number): readonly string[] {
  const key = foreign * FOREIGN_SHARES.length + share;
  let table = wordTables.get(key);
  if (!table) {
    const size = TABLE_MASK + 1;
    const words: string[] = [];
    const fill = (list: readonly string[], fraction: number) => {
      const n = Math.max(1, Math.round(fraction * size));
      for (let i = 0; i < n; i++) words.push(list[(i * 7) % list.length]!);
    };
    fill(FOREIGN[foreign]!, FOREIGN_SHARES[share]!);
    fill(SPECIAL, 0.012);
    fill(EMOJI, 0.005);
    fill(TECHNICAL, 0.185);
    let i = 0;
    while (words.length < size) words.push(COMMON[i++ % COMMON.length]!);
    table = words.slice(0, size);
    wordTables.set(key, table);
  }
  return table;
}

type CodeLine = (t: Writer, a: string, b: string, w: string) => string;

/** Lines of code to draw from, per language: string escapes, backslashes, tabs, quotes. */
const CODE_LINES: Record<string, readonly CodeLine[]> = {
  python: [
    (t, a, b) => `def ${a}(${b}, limit=${t.rng.int(1, 500)}):`,
    (t, a, b, w) => `    ${a} = ${b}.get("${w}", ${t.rng.int(0, 99)})`,
    (_, a) => `    if ${a} is None:`,
    (_, _a, b, w) => `        raise ValueError(f"bad ${w}: {${b}!r}")`,
    (_, a, b) => `    return [x for x in ${b} if x.${a}]`,
    (t) => `# ${t.sentence(3, 10)}`,
    (_, a, _b, w) => `print("${w}\\t${a}\\n", end="")`,
    (_, a, _b, w) => `path = r"C:\\Users\\${w}\\${a}.csv"`,
    () => `df = pd.read_csv(path, sep=";")`,
    (_, _a, b) => `    for i, row in enumerate(${b}):`,
    (_, a) => `\t${a} += 1  # tab-indented`,
  ],
  typescript: [
    (_, a, b) => `export function ${a}(${b}: string): number {`,
    (_, a, b, w) => `  const ${a} = await fetch(\`/api/${w}/\${${b}}\`);`,
    (_, _a, b) => `  return ${b}.split("\\n").length;`,
    () => `}`,
    (t) => `// ${t.sentence(3, 10)}`,
    () => `const re = /^"(?:[^"\\\\]|\\\\.)*"$/;`,
    (_, a, _b, w) => `console.log(JSON.stringify({ ${a}: "${w}" }, null, 2));`,
    (_, a, _b, w) => `  if (!${a}) throw new Error('${w} is missing');`,
  ],
  sql: [
    (_, a, b, w) => `SELECT ${a}, COUNT(*) AS n FROM ${b} WHERE ${a} LIKE '%${w}%' GROUP BY 1;`,
    (_, a, b) => `CREATE INDEX idx_${b} ON ${b}(${a} DESC);`,
    (t) => `-- ${t.sentence(3, 10)}`,
    (t, a, b, w) => `UPDATE ${b} SET ${a} = '${w}''s' WHERE id = ${t.rng.int(1, 9999)};`,
  ],
  bash: [
    (_, _a, _b, w) => `grep -rn "${w}" ./src | awk -F: '{print $1}' | sort -u`,
    (_, a, _b, w) => `export ${a.toUpperCase()}="${w}"`,
    (_, a) => `echo "done \\o/" >> /tmp/${a}.log`,
    (t) => `# ${t.sentence(3, 10)}`,
    (t) => `find . -name '*.${t.rng.pick(['ts', 'py', 'json'])}' -exec sed -i 's/\\t/  /g' {} +`,
  ],
  json: [(t, a, _b, w) => `  "${a}": "${t.words(t.rng.int(1, 5)).replace(/["\\]/g, '')} \\"${w}\\"",`],
};

/** Text for one conversation: mostly English, sometimes in another script, with noise. */
class Writer {
  private readonly table: readonly string[];

  constructor(readonly rng: Rng) {
    const r = rng.next();
    const foreign = rng.int(0, FOREIGN.length - 1);
    this.table = wordTable(foreign, r < 0.82 ? 0 : r < 0.95 ? 1 : 2);
  }

  word(): string {
    return this.table[this.rng.u32() & TABLE_MASK]!;
  }

  ident(): string {
    const a = this.rng.pick(IDENTS);
    return this.rng.chance(0.5) ? a : `${a}_${this.rng.pick(COMMON)}`;
  }

  // Strings are assembled with join, never `+=`: join gives one flat string, where
  // `+=` leaves a rope of small pieces that costs memory and slows JSON.stringify.
  words(n: number): string {
    const table = this.table;
    const rng = this.rng;
    const out = new Array<string>(Math.max(1, n));
    for (let i = 0; i < out.length; i++) out[i] = table[rng.u32() & TABLE_MASK]!;
    return out.join(' ');
  }

  sentence(min = 4, max = 22, end?: string): string {
    const table = this.table;
    const rng = this.rng;
    const out = new Array<string>(Math.max(1, rng.int(min, max)));
    out[0] = capitalize(table[rng.u32() & TABLE_MASK]!);
    for (let i = 1; i < out.length; i++) out[i] = table[rng.u32() & TABLE_MASK]!;
    out[out.length - 1] += end ?? rng.pick(['.', '.', '.', '.', '?', '!', ':', '…']);
    return out.join(' ');
  }

  paragraph(): string {
    const out = new Array<string>(this.rng.int(1, 6));
    for (let i = 0; i < out.length; i++) out[i] = this.sentence();
    return out.join(' ');
  }

  title(): string {
    const out = new Array<string>(this.rng.int(2, 6));
    for (let i = 0; i < out.length; i++) out[i] = capitalize(this.word());
    return out.join(' ');
  }

  url(): string {
    const site = this.rng.pick(SITES);
    const tld = this.rng.pick(TLDS);
    return `https://${site}.${tld}/${this.ident()}/${this.rng.pick(COMMON)}-${this.rng.pick(SLUGS)}`;
  }

  /** A code snippet (no fence) of a few lines. */
  code(language: string, lines: number): string {
    const templates = CODE_LINES[language === 'javascript' ? 'typescript' : language] ?? CODE_LINES.json!;
    const out: string[] = [];
    const rng = this.rng;
    for (let i = 0; i < lines; i++) out.push(rng.pick(templates)(this, this.ident(), this.ident(), rng.pick(COMMON)));
    return out.join('\n');
  }

  codeBlock(): { language: string; code: string } {
    const language = this.rng.pick(['python', 'python', 'typescript', 'javascript', 'sql', 'bash', 'json']);
    return { language, code: this.code(language, this.rng.skewed(3, 60)) };
  }

  /** Markdown, as assistants write it, of roughly `target` characters. */
  markdown(target: number): string {
    const rng = this.rng;
    const out: string[] = [];
    let length = 0;
    const add = (block: string) => {
      out.push(block);
      length += block.length + 2;
    };
    add(this.sentence(5, 25));
    while (length < target) {
      const r = rng.next();
      if (r < 0.42) add(this.paragraph());
      else if (r < 0.55) add(`${rng.pick(['###', '####', '##'])} ${rng.pick(EMOJI)} **${this.title()}**`);
      else if (r < 0.75) {
        const items: string[] = [];
        const numbered = rng.chance(0.4);
        const n = rng.int(2, 7);
        for (let i = 0; i < n; i++) {
          const bold = rng.chance(0.5) ? `**${this.title()}**: ` : '';
          items.push(`${numbered ? `${i + 1}.` : '-'} ${bold}${this.sentence()}`);
        }
        add(items.join('\n'));
      } else if (r < 0.9) {
        const { language, code } = this.codeBlock();
        add(`\`\`\`${language}\n${code}\n\`\`\``);
      } else if (r < 0.95) add(`> ${this.sentence()}\n> ${this.sentence()}`);
      else if (r < 0.98) add('---');
      else {
        const rows = [`| ${this.word()} | ${this.word()} | ${this.word()} |`, '|---|---|---|'];
        const n = rng.int(2, 6);
        for (let i = 0; i < n; i++) rows.push(`| ${this.word()} | ${rng.int(0, 10000)} | ${this.words(rng.int(1, 4))} |`);
        add(rows.join('\n'));
      }
    }
    return out.join('\n\n');
  }

  /** What people type: mostly a line or two, sometimes a pasted log or code. */
  prompt(): string {
    const rng = this.rng;
    const r = rng.next();
    if (r < 0.08) {
      const { language, code } = this.codeBlock();
      return `${this.sentence(4, 16, rng.pick(['?', ':', '.']))}\n\n\`\`\`${language}\n${code}\n\`\`\``;
    }
    if (r < 0.12) return this.log(rng.skewed(10, 120));
    if (r < 0.2) return this.words(rng.int(1, 5));
    const n = rng.skewed(1, 12);
    const out: string[] = [];
    for (let i = 0; i < n - 1; i++) out.push(this.sentence());
    out.push(this.sentence(3, 24, '?'));
    return out.join(rng.chance(0.3) ? '\n' : ' ');
  }

  /** Log or program output; a traceback now and then, with terminal colours. */
  log(lines: number): string {
    const rng = this.rng;
    const out: string[] = [];
    if (rng.chance(0.15)) {
      out.push('\u001b[0;31m---------------------------------------------------------------------------\u001b[0m');
      out.push(`\u001b[0;31m${rng.pick(['KeyError', 'ValueError', 'TypeError', 'FileNotFoundError'])}\u001b[0m: '${this.ident()}'`);
    }
    for (let i = 0; i < lines; i++) {
      const r = rng.next();
      if (r < 0.5) {
        const ms = rng.int(0, 86_399_999);
        const pad = (n: number, width = 2) => String(n).padStart(width, '0');
        const time = `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
        out.push(`${time} ${rng.pick(['INFO', 'WARN', 'DEBUG', 'ERROR'])} [${this.ident()}] ${this.sentence(3, 12, '')}`);
      } else if (r < 0.8) {
        out.push(`${String(rng.int(0, 999)).padStart(4)}  ${(rng.next() * 1000).toFixed(3).padStart(10)}  ${this.ident().padEnd(18)} ${this.word()}`);
      } else {
        out.push(`  File "/usr/lib/python3.11/${this.ident()}.py", line ${rng.int(1, 900)}, in ${this.ident()}`);
      }
    }
    return out.join('\n');
  }
}

// ---------------------------------------------------------------- clock

/** Microseconds since the epoch, moving forward. */
class Clock {
  us: number;
  constructor(startSeconds: number) {
    this.us = startSeconds * 1e6;
  }
  advance(seconds: number): number {
    this.us += Math.max(1, Math.round(seconds * 1e6));
    return this.us;
  }
}

/** ChatGPT's float unix seconds, microsecond precision. */
const unixSeconds = (us: number) => Math.round(us) / 1e6;

/** Claude's ISO strings with microseconds: 2025-10-01T18:42:27.303515Z */
let isoDay = -1;
let isoDayPrefix = '';
function isoMicros(us: number): string {
  const whole = Math.round(us);
  const day = Math.floor(whole / 86_400_000_000);
  if (day !== isoDay) {
    isoDay = day;
    isoDayPrefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
  }
  const inDay = whole - day * 86_400_000_000;
  const seconds = Math.floor(inDay / 1_000_000);
  const hh = Math.floor(seconds / 3600);
  const mm = Math.floor(seconds / 60) % 60;
  const ss = seconds % 60;
  const micros = String(inDay % 1_000_000).padStart(6, '0');
  return `${isoDayPrefix}${hh < 10 ? '0' : ''}${hh}:${mm < 10 ? '0' : ''}${mm}:${ss < 10 ? '0' : ''}${ss}.${micros}Z`;
}

// ---------------------------------------------------------------- ChatGPT

const GPT_MODELS = ['gpt-4o', 'gpt-4o', 'gpt-4o', 'gpt-4o-mini', 'gpt-4', 'o3', 'o4-mini', 'gpt-5', 'gpt-5-thinking', 'text-davinci-002-render-sha'];
const REASONING_MODELS = new Set(['o3', 'o4-mini', 'gpt-5-thinking']);
const AIRPORTS = ['IAD', 'SJC', 'QRO', 'FRA', 'AMS', 'LHR', 'NRT', 'SIN', 'CDG', 'ORD'];

interface Node {
  id: string;
  message: Json | null;
  parent: string | null;
  children: string[];
}

class ChatGptConversation {
  private readonly mapping: Record<string, Node> = {};
  private readonly model: string;
  private readonly reasoning: boolean;
  private readonly stopToken: number;
  private readonly clientIds: boolean;
  private requestId = '';

  constructor(
    private readonly rng: Rng,
    private readonly clock: Clock,
    private readonly text: Writer,
  ) {
    this.model = rng.pick(GPT_MODELS);
    this.reasoning = REASONING_MODELS.has(this.model);
    this.stopToken = this.model === 'gpt-4' || this.model.startsWith('text-') ? 100260 : 200002;
    this.clientIds = rng.chance(0.5);
  }

  build(): Json {
    const rng = this.rng;
    const createUs = this.clock.us;
    const id = this.conversationId(createUs);
    const root = this.add(null, rng.chance(0.25) ? 'client-created-root' : this.userNodeId(1));
    let parent = this.add(this.systemMessage(), rng.uuid(), root);
    if (rng.chance(0.3)) parent = this.add(this.contextMessage(), rng.uuid(), parent);

    const turns = Math.max(1, Math.round(rng.exp(5)));
    let current = parent;
    for (let turn = 0; turn < turns; turn++) {
      const last = turn === turns - 1;
      // An edited question: the first version and its answer stay behind as a branch.
      if (turn > 0 && rng.chance(0.05)) {
        const abandoned = this.add(this.userMessage(), this.userNodeId(2), parent);
        this.respond(abandoned);
      }
      const user = this.add(this.userMessage(), this.userNodeId(2), parent);
      // A regenerated answer: the first answer stays behind as a sibling branch.
      let firstAnswer: string | undefined;
      if (rng.chance(0.06)) firstAnswer = this.respond(user);
      parent = this.respond(user);
      current = last && firstAnswer !== undefined && rng.chance(0.3) ? firstAnswer : parent;
    }

    const title = this.text.title();
    return {
      title,
      create_time: unixSeconds(createUs),
      update_time: unixSeconds(this.clock.advance(rng.exp(30))),
      mapping: this.mapping,
      moderation_results: [],
      current_node: current,
      plugin_ids: null,
      conversation_id: id,
      conversation_template_id: null,
      gizmo_id: null,
      gizmo_type: null,
      is_archived: rng.chance(0.03),
      is_starred: null,
      safe_urls: [],
      blocked_urls: [],
      default_model_slug: this.model,
      conversation_origin: null,
      is_read_only: null,
      voice: null,
      async_status: null,
      disabled_tool_ids: [],
      is_do_not_remember: false,
      memory_scope: 'global_enabled',
      context_scopes: null,
      sugar_item_id: null,
      sugar_item_visible: false,
      is_study_mode: false,
      owner: null,
      id,
    };
  }

  /** Like ChatGPT's own: the creation time in hex, then random (unique as creation times are). */
  private conversationId(createUs: number): string {
    const seconds = Math.floor(createUs / 1e6).toString(16).padStart(8, '0');
    const rng = this.rng;
    return `${seconds}-${rng.hex4()}-8005-${rng.hex4()}-${rng.hex4()}${rng.hex8()}`;
  }

  /** The web client named user nodes `aaa1…`/`aaa2…` for a while. */
  private userNodeId(kind: 1 | 2): string {
    const id = this.rng.uuid();
    return this.clientIds ? `aaa${kind}${id.slice(4)}` : id;
  }

  private add(message: Json | null, id: string, parent?: string): string {
    if (message) message.id = id;
    const node: Node = { id, message: message === null ? null : reorderId(message), parent: parent ?? null, children: [] };
    this.mapping[id] = node;
    if (parent !== undefined) this.mapping[parent]!.children.push(id);
    return id;
  }

  /** An assistant turn after `user`: maybe reasoning, a tool call or two, then the answer. Returns the leaf. */
  private respond(user: string): string {
    const rng = this.rng;
    this.requestId = `${rng.hex16()}-${rng.pick(AIRPORTS)}`;
    let parent = user;
    if (this.reasoning && rng.chance(0.75)) {
      parent = this.add(this.thoughtsMessage(parent), rng.uuid(), parent);
      parent = this.add(this.recapMessage(parent), rng.uuid(), parent);
    }
    if (rng.chance(0.04)) parent = this.add(this.assistantMessage(parent, '', { endTurn: null, complete: false }), rng.uuid(), parent);
    const r = rng.next();
    if (r < 0.08) {
      const rounds = rng.int(1, 3);
      for (let i = 0; i < rounds; i++) {
        const code = this.text.code('python', rng.skewed(2, 40));
        parent = this.add(this.codeMessage(parent, code, 'python'), rng.uuid(), parent);
        parent = this.add(this.executionOutput(parent, code), rng.uuid(), parent);
      }
    } else if (r < 0.12) {
      const query = this.text.sentence(3, 12, '');
      parent = this.add(this.codeMessage(parent, `search(${JSON.stringify(query)})`, 'web'), rng.uuid(), parent);
      parent = this.add(this.webToolMessage(parent), rng.uuid(), parent);
      return this.add(this.assistantMessage(parent, this.text.markdown(rng.skewed(300, 5000)), { search: true }), rng.uuid(), parent);
    }
    const interrupted = rng.chance(0.01);
    return this.add(this.assistantMessage(parent, this.text.markdown(rng.skewed(40, 7000, 1.6)), { interrupted }), rng.uuid(), parent);
  }

  private message(role: string, name: string | null, createUs: number | null, content: Json, fields: Json, metadata: Json): Json {
    return {
      id: '',
      author: { role, name, metadata: {} },
      create_time: createUs === null ? null : unixSeconds(createUs),
      update_time: null,
      content,
      status: 'finished_successfully',
      end_turn: null,
      weight: 1.0,
      metadata,
      recipient: 'all',
      channel: null,
      ...fields,
    };
  }

  private systemMessage(): Json {
    return this.message(
      'system',
      null,
      null,
      { content_type: 'text', parts: [''] },
      { end_turn: true, weight: 0.0 },
      { is_visually_hidden_from_conversation: true },
    );
  }

  private contextMessage(): Json {
    const profile = `Preferred name: ${this.text.title()}\nRole: ${this.text.words(this.rng.int(1, 4))}\nOther Information: ${this.text.paragraph()}`;
    const instructions = this.text.paragraph();
    return this.message(
      'user',
      null,
      null,
      {
        content_type: 'user_editable_context',
        user_profile:
          'The user provided the following information about themselves. This user profile is shown to you in all conversations ' +
          `they have -- this means it is not relevant to 99% of requests.\nUser profile:\n\`\`\`${profile}\`\`\``,
        user_instructions: `The user provided the additional info about how they would like you to respond:\n\`\`\`${instructions}\`\`\``,
      },
      {},
      {
        is_visually_hidden_from_conversation: true,
        user_context_message_data: { about_user_message: profile, about_model_message: instructions },
        is_user_system_message: true,
      },
    );
  }

  private userMessage(): Json {
    const rng = this.rng;
    const at = this.clock.advance(rng.chance(0.1) ? rng.exp(4 * 3600) : rng.exp(90) + 5);
    this.requestId = `${rng.hex16()}-${rng.pick(AIRPORTS)}`;
    const metadata: Json = {
      dictation: false,
      request_id: this.requestId,
      message_source: null,
      timestamp_: 'absolute',
      message_type: null,
    };
    if (rng.chance(0.3)) metadata.selected_github_repos = [];
    if (rng.chance(0.3)) metadata.serialization_metadata = { custom_symbol_offsets: [] };
    let content: Json;
    if (rng.chance(0.05)) {
      const file = `file-${rng.base62(22)}`;
      const width = rng.pick([512, 768, 1024, 1536, 2048]);
      const height = rng.pick([512, 768, 1024, 1152]);
      const size = rng.int(40_000, 3_000_000);
      content = {
        content_type: 'multimodal_text',
        parts: [
          {
            content_type: 'image_asset_pointer',
            asset_pointer: `file-service://${file}`,
            size_bytes: size,
            width,
            height,
            fovea: null,
            metadata: {
              dalle: null,
              gizmo: null,
              generation: null,
              container_pixel_height: null,
              container_pixel_width: null,
              emu_omit_glimpse_image: null,
              emu_patches_override: null,
              lpe_keep_patch_ijhw: null,
              sanitized: true,
              asset_pointer_link: null,
              watermarked_asset_pointer: null,
            },
          },
          this.text.prompt(),
        ],
      };
      metadata.attachments = [{ width, size, height, id: file, name: `${rng.uuid().toUpperCase()}.${rng.pick(['jpeg', 'png'])}` }];
    } else {
      content = { content_type: 'text', parts: [this.text.prompt()] };
    }
    return this.message('user', null, at, content, {}, metadata);
  }

  private assistantMetadata(parent: string, extra: Json = {}): Json {
    return {
      ...extra,
      message_type: null,
      model_slug: this.model,
      default_model_slug: this.model,
      parent_id: parent,
      request_id: this.requestId,
      timestamp_: 'absolute',
    };
  }

  private assistantMessage(
    parent: string,
    text: string,
    options: { endTurn?: boolean | null; complete?: boolean; interrupted?: boolean; search?: boolean } = {},
  ): Json {
    const rng = this.rng;
    const at = this.clock.advance(rng.exp(8) + 0.3);
    const complete = options.complete ?? true;
    const extra: Json = {};
    if (complete) {
      extra.finish_details = options.interrupted ? { type: 'interrupted' } : { type: 'stop', stop_tokens: [this.stopToken] };
      extra.is_complete = !options.interrupted;
    }
    if (rng.chance(0.3)) extra.sonic_classification_result = { latency_ms: rng.next() * 1e9, search_prob: rng.next() * 0.2 };
    extra.citations = [];
    extra.content_references = [];
    if (options.search) {
      const groups: Json[] = [];
      const n = rng.int(1, 4);
      for (let g = 0; g < n; g++) {
        const site = rng.pick(SITES);
        const entries: Json[] = [];
        const m = rng.int(1, 3);
        for (let e = 0; e < m; e++) {
          entries.push({
            type: 'search_result',
            url: this.text.url(),
            title: this.text.title(),
            snippet: this.text.sentence(10, 40),
            ref_id: { turn_index: 0, ref_type: 'search', ref_index: g * 3 + e },
            content_type: null,
            pub_date: rng.chance(0.5) ? null : unixSeconds(this.clock.us) - rng.int(0, 3e7),
            attributions: null,
            attributions_debug: null,
          });
        }
        groups.push({ type: 'search_result_group', domain: `${site}.${rng.pick(TLDS)}`, entries });
      }
      extra.search_source = 'composer_auto';
      extra.client_reported_search_source = 'composer_auto';
      extra.search_result_groups = groups;
    }
    const author = options.search ? { role: 'assistant', name: null, metadata: { real_author: 'tool:web' } } : undefined;
    const message = this.message(
      'assistant',
      null,
      at,
      { content_type: 'text', parts: [text] },
      {
        end_turn: options.endTurn === undefined ? !options.interrupted : options.endTurn,
        status: options.interrupted ? 'in_progress' : 'finished_successfully',
        channel: this.model.startsWith('gpt-5') ? 'final' : null,
      },
      this.assistantMetadata(parent, extra),
    );
    if (author) message.author = author;
    return message;
  }

  private thoughtsMessage(parent: string): Json {
    const rng = this.rng;
    const at = this.clock.advance(rng.exp(3) + 0.5);
    const thoughts: Json[] = [];
    const n = rng.int(1, 4);
    for (let i = 0; i < n; i++) {
      thoughts.push({ summary: this.text.title(), content: this.text.markdown(rng.skewed(100, 2500)), chunks: [], finished: true });
    }
    return this.message(
      'assistant',
      null,
      at,
      { content_type: 'thoughts', thoughts, source_analysis_msg_id: rng.uuid() },
      {},
      this.assistantMetadata(parent, { reasoning_status: 'is_reasoning', citations: [], content_references: [], classifier_response: 'default' }),
    );
  }

  private recapMessage(parent: string): Json {
    const seconds = this.rng.int(2, 90);
    const at = this.clock.advance(seconds);
    return this.message(
      'assistant',
      null,
      at,
      { content_type: 'reasoning_recap', content: `Thought for ${seconds} seconds` },
      {},
      this.assistantMetadata(parent, { reasoning_status: 'reasoning_ended', finished_duration_sec: seconds }),
    );
  }

  private codeMessage(parent: string, code: string, recipient: 'python' | 'web'): Json {
    const at = this.clock.advance(this.rng.exp(5) + 0.2);
    return this.message(
      'assistant',
      null,
      at,
      { content_type: 'code', language: 'unknown', response_format_name: null, text: code },
      { recipient, end_turn: false },
      this.assistantMetadata(parent, {
        finish_details: { type: 'stop', stop_tokens: [200007] },
        is_complete: true,
        citations: [],
        content_references: [],
      }),
    );
  }

  private executionOutput(parent: string, code: string): Json {
    const rng = this.rng;
    const started = this.clock.us;
    const at = this.clock.advance(rng.exp(2) + 0.05);
    const output = this.text.log(rng.skewed(1, 80));
    const failed = output.startsWith('\u001b');
    return this.message(
      'tool',
      'python',
      at,
      { content_type: 'execution_output', text: output },
      {},
      this.assistantMetadata(parent, {
        is_complete: true,
        aggregate_result: {
          status: failed ? 'failed_with_in_kernel_exception' : 'success',
          run_id: rng.uuid(),
          start_time: unixSeconds(started),
          update_time: unixSeconds(at),
          code,
          end_time: unixSeconds(at),
          final_expression_output: failed ? null : output.slice(0, 200),
          in_kernel_exception: failed ? { name: 'KeyError', traceback: [output.slice(0, 300)], args: [this.text.ident()], notes: [] } : null,
          system_exception: null,
          messages: [],
          jupyter_messages: [
            { msg_type: 'status', parent_header: { msg_id: rng.hex32(), version: '5.3' }, content: { execution_state: 'busy' } },
            { msg_type: 'execute_input', parent_header: { msg_id: rng.hex32(), version: '5.3' } },
            { msg_type: 'status', parent_header: { msg_id: rng.hex32(), version: '5.3' }, content: { execution_state: 'idle' } },
          ],
          timeout_triggered: null,
        },
      }),
    );
  }

  private webToolMessage(parent: string): Json {
    const at = this.clock.advance(this.rng.exp(2) + 0.05);
    return this.message(
      'tool',
      'web',
      at,
      { content_type: 'code', language: 'unknown', response_format_name: null, text: '' },
      { recipient: 'assistant', weight: 0.0 },
      this.assistantMetadata(parent, { is_visually_hidden_from_conversation: true, command: 'search', status: 'finished', is_complete: true }),
    );
  }
}

/** Real exports list `id` first in a message; `add` sets it after the fact. */
function reorderId(message: Json): Json {
  const { id, ...rest } = message;
  return { id, ...rest };
}

// ---------------------------------------------------------------- Claude

const NOT_SUPPORTED = '\n```\nThis block is not supported on your current device yet.\n```\n\n';
const ATTACHMENT_TYPES: readonly [string, string][] = [
  ['txt', 'text/plain'],
  ['csv', 'text/csv'],
  ['md', 'text/markdown'],
  ['pdf', 'application/pdf'],
  ['py', 'text/x-python'],
  ['log', 'text/plain'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
];

class ClaudeConversation {
  private readonly thinking: boolean;

  constructor(
    private readonly rng: Rng,
    private readonly clock: Clock,
    private readonly text: Writer,
    private readonly accountUuid: string,
  ) {
    this.thinking = rng.chance(0.25);
  }

  build(): Json {
    const rng = this.rng;
    const uuid = rng.uuid();
    const createdUs = this.clock.us;
    const messages: Json[] = [];
    const turns = Math.max(1, Math.round(rng.exp(5)));
    for (let turn = 0; turn < turns; turn++) {
      messages.push(this.human());
      messages.push(this.assistant());
    }
    const updatedUs = this.clock.advance(rng.exp(30));
    return {
      uuid,
      name: rng.chance(0.03) ? '' : this.text.title(),
      summary: rng.chance(0.2) ? this.text.paragraph() : '',
      created_at: isoMicros(createdUs),
      updated_at: isoMicros(updatedUs),
      account: { uuid: this.accountUuid },
      chat_messages: messages,
    };
  }

  private block(type: string, startUs: number, stopUs: number, fields: Json): Json {
    return { start_timestamp: isoMicros(startUs), stop_timestamp: isoMicros(stopUs), flags: null, type, ...fields };
  }

  private textBlock(text: string, startUs: number, stopUs: number): Json {
    return this.block('text', startUs, stopUs, { text, citations: [] });
  }

  private human(): Json {
    const rng = this.rng;
    const at = this.clock.advance(rng.chance(0.1) ? rng.exp(4 * 3600) : rng.exp(90) + 5);
    const text = this.text.prompt();
    const attachments: Json[] = [];
    if (rng.chance(0.1)) {
      const n = rng.int(1, 2);
      for (let i = 0; i < n; i++) {
        const [ext, type] = rng.pick(ATTACHMENT_TYPES);
        const extracted = ext === 'csv' || ext === 'log' ? this.text.log(rng.skewed(10, 400)) : this.text.markdown(rng.skewed(300, 20000));
        attachments.push({
          file_name: `${this.text.ident()}.${ext}`,
          file_size: Buffer.byteLength(extracted) + rng.int(0, 50_000),
          file_type: type,
          extracted_content: extracted,
        });
      }
    }
    const files: Json[] = [];
    if (rng.chance(0.06)) {
      const screenshot = `Screenshot ${isoMicros(at).slice(0, 10)} at ${rng.int(1, 12)}.${rng.int(10, 59)}.png`;
      files.push({ file_name: rng.chance(0.5) ? 'image.png' : screenshot });
    }
    return {
      uuid: rng.uuid(),
      text,
      content: [this.textBlock(text, at, at)],
      sender: 'human',
      created_at: isoMicros(at),
      updated_at: isoMicros(at),
      attachments,
      files,
    };
  }

  private assistant(): Json {
    const rng = this.rng;
    const start = this.clock.advance(rng.exp(2) + 0.3);
    const content: Json[] = [];
    const text: string[] = [];
    let t = start;
    const step = (mean: number) => (t = this.clock.advance(rng.exp(mean) + 0.05));
    if (this.thinking && rng.chance(0.8)) {
      const from = t;
      const thinking = this.text.markdown(rng.skewed(100, 4000));
      const summaries: Json[] = [];
      for (let i = rng.int(0, 3); i > 0; i--) summaries.push({ summary: this.text.sentence(3, 9) });
      content.push(this.block('thinking', from, step(6), { thinking, summaries, cut_off: false }));
      text.push(NOT_SUPPORTED);
    }
    if (rng.chance(0.15)) {
      for (let i = rng.int(1, 3); i > 0; i--) {
        const lead = this.text.sentence(4, 14);
        content.push(this.textBlock(lead, t, step(1)));
        text.push(lead);
        this.toolPair(content, step);
        text.push(NOT_SUPPORTED);
      }
    }
    const answer = this.text.markdown(rng.skewed(40, 7000, 1.6));
    const from = t;
    content.push(this.textBlock(answer, from, step(10)));
    text.push(answer);
    return {
      uuid: rng.uuid(),
      text: text.join(''),
      content,
      sender: 'assistant',
      created_at: isoMicros(start),
      updated_at: isoMicros(t),
      attachments: [],
      files: [],
    };
  }

  /** A tool call and its result, in the assistant's message as claude.ai exports them. */
  private toolPair(content: Json[], step: (mean: number) => number): void {
    const rng = this.rng;
    const id = `toolu_01${rng.base62(22)}`;
    const common = { integration_name: null, integration_icon_url: null, display_content: null };
    const use = (name: string, input: Json, message: string | null, seconds: number) =>
      content.push(
        this.block('tool_use', this.clock.us, step(seconds), {
          id,
          name,
          input,
          message,
          ...common,
          context: null,
          approval_options: null,
          approval_key: null,
        }),
      );
    const result = (name: string, parts: Json[], isError: boolean, seconds: number) =>
      content.push(
        this.block('tool_result', this.clock.us, step(seconds), {
          tool_use_id: id,
          name,
          content: parts,
          is_error: isError,
          message: null,
          ...common,
        }),
      );

    const kind = rng.next();
    if (kind < 0.5) {
      use('web_search', { query: this.text.words(rng.int(2, 8)) }, 'Searching the web', 1);
      const results: Json[] = [];
      for (let i = rng.int(2, 8); i > 0; i--) {
        const url = this.text.url();
        const domain = url.split('/')[2]!;
        const favicon = `https://www.google.com/s2/favicons?sz=64&domain=${domain}`;
        results.push({
          type: 'knowledge',
          title: this.text.title(),
          url,
          metadata: { type: 'webpage_metadata', site_domain: domain, favicon_url: favicon, site_name: domain },
          is_missing: false,
          text: this.text.sentence(10, 50),
          is_citable: true,
          prompt_context_metadata: { url },
        });
      }
      result('web_search', results, false, 2);
    } else if (kind < 0.8) {
      const { language, code } = this.text.codeBlock();
      const input = {
        id: this.text.ident().replace(/_/g, '-'),
        type: 'application/vnd.ant.code',
        title: this.text.title(),
        command: 'create',
        content: code,
        language,
        version_uuid: rng.uuid(),
      };
      use('artifacts', input, null, 8);
      result('artifacts', [{ type: 'text', text: 'OK', uuid: rng.uuid() }], false, 0.2);
    } else {
      use('repl', { code: this.text.code('javascript', rng.skewed(2, 30)) }, 'Analyzing data', 3);
      const failed = rng.chance(0.1);
      const logs = this.text.log(rng.skewed(1, 30)).split('\n');
      const output = failed ? { status: 'error', logs, error: `ReferenceError: ${this.text.ident()} is not defined` } : { status: 'success', logs };
      result('repl', [{ type: 'text', text: JSON.stringify(output), uuid: rng.uuid() }], failed, 1);
    }
  }
}

// ---------------------------------------------------------------- generation

export interface GenerateOptions {
  provider: Provider;
  seed?: number;
}

interface Identity {
  uuid: string;
  userId: string;
  name: string;
  email: string;
}

/** The account the export belongs to; its own PRNG, so conversations are the same in every format. */
function identity(seed: number): Identity {
  const rng = new Rng((seed ^ 0x9e3779b9) >>> 0);
  const first = rng.pick(['Ada', 'Grace', 'Linus', 'Zoë', 'José', 'Mei', 'Sven', 'Amara', 'Noor', 'Łukasz']);
  const last = rng.pick(['Lovelace', 'Hopper', 'Nakamura', 'García', 'Müller', 'Okafor', 'Smith', "O'Brien"]);
  const handle = `${first}.${last}`.normalize('NFD').replace(/[^A-Za-z.]/g, '').toLowerCase();
  return { uuid: rng.uuid(), userId: `user-${rng.base62(24)}`, name: `${first} ${last}`, email: `${handle}${rng.int(1, 99)}@example.com` };
}

/** An endless, deterministic stream of conversations, oldest first. */
export function* generateConversations(options: GenerateOptions): Generator<Json, never, undefined> {
  const seed = options.seed ?? 1;
  const rng = new Rng(seed);
  const clock = new Clock(START_SECONDS + rng.int(0, 86_400));
  const account = identity(seed).uuid;
  for (;;) {
    // Strictly later than the last conversation, so ChatGPT's time-prefixed ids never repeat.
    clock.advance(Math.max(1, rng.exp(3 * 3600)));
    const text = new Writer(rng);
    yield options.provider === 'openai'
      ? new ChatGptConversation(rng, clock, text).build()
      : new ClaudeConversation(rng, clock, text, account).build();
  }
}

/** Messages in a conversation: mapping nodes with a message (ChatGPT), chat_messages (Claude). */
function countMessages(conversation: Json): number {
  if (Array.isArray(conversation.chat_messages)) return conversation.chat_messages.length;
  let n = 0;
  for (const node of Object.values(conversation.mapping as Record<string, Node>)) if (node.message !== null) n++;
  return n;
}

/** A small export (the JSON array) in memory, for unit tests: the same bytes the CLI writes, cut short. */
export function generateExportBytes(options: GenerateOptions & { conversations: number }): Uint8Array {
  const parts: string[] = [];
  const conversations = generateConversations(options);
  for (let i = 0; i < options.conversations; i++) parts.push(JSON.stringify(conversations.next().value));
  return new TextEncoder().encode(`[${parts.join(',')}]`);
}

// ---------------------------------------------------------------- output

/** A file write stream that makes callers wait while its buffer is full. */
class Sink {
  private readonly stream: WriteStream;
  private full = false;
  bytes = 0;

  constructor(file: string) {
    this.stream = createWriteStream(file);
    // Surface errors through `drain`/`close` rather than as an uncaught event.
    this.stream.on('error', () => {});
  }

  /** Writes without waiting; call `ready()` before producing more. */
  write(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (!this.stream.write(chunk)) this.full = true;
  }

  async ready(): Promise<void> {
    if (this.stream.errored) throw this.stream.errored;
    if (!this.full) return;
    this.full = false;
    await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    this.stream.end();
    await finished(this.stream);
  }
}

interface Summary {
  file: string;
  bytes: number;
  conversations: number;
  messages: number;
  provider: Provider;
  format: 'json' | 'zip';
  jsonBytes?: number;
}

interface CliOptions {
  provider: Provider;
  sizeMb: number;
  out: string;
  format: 'json' | 'zip';
  splitMb: number;
  seed: number;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * Streams conversations until `target` JSON bytes are written, as one array or,
 * when `splitBytes` is given, as arrays of at most that size (a conversation
 * larger than a whole file gets a file to itself). `open` starts a file, `put`
 * writes to it (and may wait), `close` ends it.
 */
async function writeConversations(
  options: CliOptions,
  target: number,
  splitBytes: number,
  out: { open(index: number): void; put(chunk: Uint8Array): Promise<void>; close(): Promise<void> },
): Promise<{ conversations: number; messages: number; jsonBytes: number }> {
  let conversations = 0;
  let messages = 0;
  let jsonBytes = 0;
  let file = 0;
  let inFile = 0; // bytes in the current file, brackets included
  let count = 0; // conversations in the current file
  out.open(file);
  await out.put(OPEN);
  inFile = 1;
  for (const conversation of generateConversations({ provider: options.provider, seed: options.seed })) {
    const bytes = Buffer.from(JSON.stringify(conversation));
    if (count > 0 && inFile + 1 + bytes.length + 1 > splitBytes) {
      await out.put(CLOSE);
      jsonBytes += inFile + 1;
      await out.close();
      out.open(++file);
      await out.put(OPEN);
      inFile = 1;
      count = 0;
    }
    if (count > 0) {
      await out.put(COMMA);
      inFile += 1;
    }
    await out.put(bytes);
    inFile += bytes.length;
    count++;
    conversations++;
    messages += countMessages(conversation);
    if (jsonBytes + inFile >= target) break;
  }
  await out.put(CLOSE);
  jsonBytes += inFile + 1;
  await out.close();
  return { conversations, messages, jsonBytes };
}

async function writeJson(options: CliOptions): Promise<Summary> {
  const sink = new Sink(options.out);
  const result = await writeConversations(options, options.sizeMb * MIB, Infinity, {
    open() {},
    async put(chunk) {
      sink.write(chunk);
      await sink.ready();
    },
    async close() {},
  });
  await sink.close();
  const { conversations, messages } = result;
  return { file: options.out, bytes: sink.bytes, conversations, messages, provider: options.provider, format: 'json' };
}

async function writeZip(options: CliOptions): Promise<Summary> {
  const sink = new Sink(options.out);
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else sink.write(chunk);
  });
  const check = async () => {
    if (failure) throw failure;
    await sink.ready();
  };
  const entry = (name: string) => {
    const file = new ZipDeflate(name, { level: ZIP_LEVEL });
    file.mtime = ZIP_MTIME;
    zip.add(file);
    return file;
  };
  const small = async (name: string, value: unknown) => {
    entry(name).push(new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value)), true);
    await check();
  };

  const who = identity(options.seed);
  const meta = new Rng((options.seed ^ 0x85ebca6b) >>> 0);
  const openai = options.provider === 'openai';
  // The deflater gets batches of ZIP_BATCH bytes: fed a conversation (or a comma)
  // at a time it ends a deflate block on every push, slower and compressing worse.
  let current: ZipDeflate | undefined;
  let batch: Uint8Array[] = [];
  let batched = 0;
  const flush = (final: boolean) => {
    current!.push(batch.length === 1 ? batch[0]! : Buffer.concat(batch, batched), final);
    batch = [];
    batched = 0;
  };
  const result = await writeConversations(options, options.sizeMb * MIB, openai ? options.splitMb * MIB : Infinity, {
    open(index) {
      current = entry(openai ? `conversations-${String(index).padStart(3, '0')}.json` : 'conversations.json');
    },
    async put(chunk) {
      batch.push(chunk);
      batched += chunk.length;
      if (batched < ZIP_BATCH) return;
      flush(false);
      await check();
    },
    async close() {
      flush(true);
      await check();
    },
  });

  if (openai) {
    await small('user.json', { id: who.userId, email: who.email, chatgpt_plus_user: true, phone_number: null });
    await small(
      'chat.html',
      '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="UTF-8">\n<title>ChatGPT Data Export</title>\n</head>\n<body>\n<div id="root"></div>\n' +
        '<script>\n// The real chat.html embeds every conversation as jsonData; this generated one stays small.\n' +
        'var jsonData = [];\n</script>\n</body>\n</html>\n',
    );
  } else {
    await small('users.json', [{ uuid: who.uuid, full_name: who.name, email_address: who.email, verified_phone_number: null }]);
    const projects: Json[] = [];
    const clock = new Clock(START_SECONDS - 86_400 * meta.int(1, 60));
    for (let i = meta.int(1, 4); i > 0; i--) {
      const text = new Writer(meta);
      const created = isoMicros(clock.advance(meta.exp(86_400)));
      const docs: Json[] = [];
      for (let d = meta.int(0, 3); d > 0; d--) {
        docs.push({
          uuid: meta.uuid(),
          filename: `${text.ident()}.md`,
          content: text.markdown(meta.skewed(200, 10_000)),
          created_at: isoMicros(clock.advance(meta.exp(600))),
        });
      }
      projects.push({
        uuid: meta.uuid(),
        name: text.title(),
        description: text.sentence(),
        is_private: true,
        is_starter_project: false,
        prompt_template: meta.chance(0.5) ? text.paragraph() : '',
        created_at: created,
        updated_at: isoMicros(clock.advance(meta.exp(3600))),
        creator: { uuid: who.uuid, full_name: who.name },
        docs,
      });
    }
    await small('projects.json', projects);
  }
  zip.end();
  await check();
  if (failure) throw failure;
  await sink.close();
  return {
    file: options.out,
    bytes: sink.bytes,
    conversations: result.conversations,
    messages: result.messages,
    provider: options.provider,
    format: 'zip',
    jsonBytes: result.jsonBytes,
  };
}

// ---------------------------------------------------------------- CLI

const USAGE =
  'usage: node --import tsx scripts/generate-export.ts --provider openai|anthropic --size-mb N --out FILE\n' +
  '         [--format json|zip] [--split-mb M] [--seed S]';

function parseCli(argv: string[]): CliOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      provider: { type: 'string' },
      'size-mb': { type: 'string' },
      out: { type: 'string' },
      format: { type: 'string', default: 'json' },
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
  const provider = values.provider;
  if (provider !== 'openai' && provider !== 'anthropic') fail('--provider must be openai or anthropic');
  const format = values.format;
  if (format !== 'json' && format !== 'zip') fail('--format must be json or zip');
  const sizeMb = Number(values['size-mb']);
  if (!(sizeMb > 0) || !Number.isFinite(sizeMb)) fail('--size-mb must be a positive number');
  const splitMb = Number(values['split-mb']);
  if (!(splitMb > 0) || !Number.isFinite(splitMb)) fail('--split-mb must be a positive number');
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) fail('--seed must be an integer');
  if (!values.out) fail('--out is required');
  if (format === 'zip' && (sizeMb > ZIP_MAX_MB || splitMb > ZIP_MAX_MB)) fail(`--format zip is limited to ${ZIP_MAX_MB} MiB (no Zip64)`);
  return { provider: provider as Provider, format: format as 'json' | 'zip', sizeMb, splitMb, seed, out: values.out! };
}

async function main(): Promise<void> {
  let options: CliOptions;
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
  const summary = options.format === 'zip' ? await writeZip(options) : await writeJson(options);
  console.log(JSON.stringify(summary));
}

// No top-level await: the module stays importable from CommonJS-compiled callers too.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
