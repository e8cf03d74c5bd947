/**
 * Realistic text for generated exports: words (mostly English, sometimes another
 * script, with the punctuation and escapes that make JSON and CSV work), titles,
 * prompts, code, logs, URLs, Markdown as assistants write it (or the same blocks
 * as HTML, for Gemini), and the account an export belongs to.
 */
import { Rng } from './rng.ts';

// ---------------------------------------------------------------- vocabulary

export const COMMON = (
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
  '日本語 東京 ありがとう こんにちは 勉強 問題 データベース 中文 你好 世界 学习 数据 计算机 谢谢 한국어 안녕하세요 데이터 감사합니다 서울'.split(
    ' ',
  ),
  'Привет спасибо данные Москва программа вопрос ответ Ελληνικά καλημέρα ευχαριστώ δεδομένα Αθήνα שלום תודה مرحبا شكرا नमस्ते धन्यवाद'.split(
    ' ',
  ),
];

export const EMOJI = [
  '🙂',
  '😅',
  '🚀',
  '🎉',
  '👍🏽',
  '🔥',
  '✅',
  '❌',
  '⚠️',
  '💡',
  '📊',
  '🧠',
  '👨‍👩‍👧',
  '🇫🇷',
  '🇯🇵',
  '🤖',
  '☕',
  '🎨',
];

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

export const TLDS = ['com', 'org', 'io', 'dev', 'net', 'co.uk', 'de'];
export const SITES = [
  'wikipedia',
  'stackoverflow',
  'github',
  'medium',
  'reddit',
  'developer.mozilla',
  'docs.python',
  'nytimes',
  'bbc',
  'arxiv',
];

// ---------------------------------------------------------------- text

const IDENTS = TECHNICAL.map((word) => word.replace(/[^a-z]/g, '')).filter(Boolean);
const SLUGS = TECHNICAL.map((word) => word.replace(/[^a-z0-9-]/g, ''));
export const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

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

type CodeLine = (t: Text, a: string, b: string, w: string) => string;

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
export class Text {
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
    const out: string[] = [];
    let block = this.sentence(5, 25);
    let length = block.length + 2;
    out.push(block);
    while (length < target) {
      block = markdownBlock(this.block());
      out.push(block);
      length += block.length + 2;
    }
    return out.join('\n\n');
  }

  /**
   * The same kind of answer as HTML, as Gemini's activity stores it (`<p>`, `<h3>`,
   * lists, `<pre><code>`, tables, quotes; text escaped), of roughly `target`
   * characters; now and then with emphasis and links.
   */
  html(target: number): string {
    const rng = this.rng;
    const out: string[] = [];
    let block = `<p>${escapeHtml(this.sentence(5, 25))}</p>`;
    let length = block.length;
    out.push(block);
    while (length < target) {
      const next = this.block();
      if (next.kind === 'p' && rng.chance(0.25)) {
        const tag = rng.chance(0.5) ? 'strong' : 'em';
        block = `<p><${tag}>${escapeHtml(this.title())}</${tag}> ${escapeHtml(next.text)}</p>`;
      } else if (next.kind === 'p' && rng.chance(0.1)) {
        block = `<p>${escapeHtml(next.text)} See <a href="${escapeHtml(this.url())}">${escapeHtml(this.title())}</a>.</p>`;
      } else block = htmlBlock(next);
      out.push(block);
      length += block.length;
    }
    return out.join('');
  }

  /** One block of an answer after its first sentence: what `markdown` and `html` render. */
  private block(): Block {
    const rng = this.rng;
    const r = rng.next();
    if (r < 0.42) return { kind: 'p', text: this.paragraph() };
    if (r < 0.55) {
      const marks = rng.pick(['###', '####', '##']);
      const emoji = rng.pick(EMOJI);
      return { kind: 'h', level: marks.length, text: `${emoji} `, bold: this.title() };
    }
    if (r < 0.75) {
      const numbered = rng.chance(0.4);
      const items: ListItem[] = [];
      const n = rng.int(2, 7);
      for (let i = 0; i < n; i++) {
        const bold = rng.chance(0.5) ? this.title() : null;
        items.push({ bold, text: this.sentence() });
      }
      return { kind: 'list', numbered, items };
    }
    if (r < 0.9) return { kind: 'code', ...this.codeBlock() };
    if (r < 0.95) return { kind: 'quote', lines: [this.sentence(), this.sentence()] };
    if (r < 0.98) return { kind: 'hr' };
    const header = [this.word(), this.word(), this.word()];
    const rows: string[][] = [];
    const n = rng.int(2, 6);
    for (let i = 0; i < n; i++) rows.push([this.word(), String(rng.int(0, 10000)), this.words(rng.int(1, 4))]);
    return { kind: 'table', header, rows };
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
      out.push(
        `\u001b[0;31m${rng.pick(['KeyError', 'ValueError', 'TypeError', 'FileNotFoundError'])}\u001b[0m: '${this.ident()}'`,
      );
    }
    for (let i = 0; i < lines; i++) {
      const r = rng.next();
      if (r < 0.5) {
        const ms = rng.int(0, 86_399_999);
        const pad = (n: number, width = 2) => String(n).padStart(width, '0');
        const time = `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
        out.push(
          `${time} ${rng.pick(['INFO', 'WARN', 'DEBUG', 'ERROR'])} [${this.ident()}] ${this.sentence(3, 12, '')}`,
        );
      } else if (r < 0.8) {
        out.push(
          `${String(rng.int(0, 999)).padStart(4)}  ${(rng.next() * 1000).toFixed(3).padStart(10)}  ${this.ident().padEnd(18)} ${this.word()}`,
        );
      } else {
        out.push(`  File "/usr/lib/python3.11/${this.ident()}.py", line ${rng.int(1, 900)}, in ${this.ident()}`);
      }
    }
    return out.join('\n');
  }
}

interface ListItem {
  bold: string | null;
  text: string;
}

type Block =
  | { kind: 'p'; text: string }
  | { kind: 'h'; level: number; text: string; bold: string }
  | { kind: 'list'; numbered: boolean; items: ListItem[] }
  | { kind: 'code'; language: string; code: string }
  | { kind: 'quote'; lines: string[] }
  | { kind: 'hr' }
  | { kind: 'table'; header: string[]; rows: string[][] };

function markdownBlock(block: Block): string {
  switch (block.kind) {
    case 'p':
      return block.text;
    case 'h':
      return `${'#'.repeat(block.level)} ${block.text}**${block.bold}**`;
    case 'list':
      return block.items
        .map(
          (item, i) =>
            `${block.numbered ? `${i + 1}.` : '-'} ${item.bold === null ? '' : `**${item.bold}**: `}${item.text}`,
        )
        .join('\n');
    case 'code':
      return `\`\`\`${block.language}\n${block.code}\n\`\`\``;
    case 'quote':
      return block.lines.map((line) => `> ${line}`).join('\n');
    case 'hr':
      return '---';
    case 'table':
      return [
        `| ${block.header.join(' | ')} |`,
        '|---|---|---|',
        ...block.rows.map((row) => `| ${row.join(' | ')} |`),
      ].join('\n');
  }
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

function htmlBlock(block: Block): string {
  switch (block.kind) {
    case 'p':
      return `<p>${escapeHtml(block.text)}</p>`;
    case 'h':
      return `<h${block.level}>${escapeHtml(block.text)}<strong>${escapeHtml(block.bold)}</strong></h${block.level}>`;
    case 'list': {
      const tag = block.numbered ? 'ol' : 'ul';
      const items = block.items.map(
        (item) =>
          `<li>${item.bold === null ? '' : `<strong>${escapeHtml(item.bold)}</strong>: `}${escapeHtml(item.text)}</li>`,
      );
      return `<${tag}>${items.join('')}</${tag}>`;
    }
    case 'code':
      return `<pre><code class="language-${block.language}">${escapeHtml(block.code)}\n</code></pre>`;
    case 'quote':
      return `<blockquote>${block.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</blockquote>`;
    case 'hr':
      return '<hr>';
    case 'table': {
      const head = block.header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('');
      const rows = block.rows
        .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
        .join('');
      return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
    }
  }
}

// ---------------------------------------------------------------- the account

export interface Account {
  uuid: string;
  userId: string;
  name: string;
  email: string;
}

/** The account the export belongs to; its own PRNG, so conversations are the same in every format. */
export function account(seed: number): Account {
  const rng = new Rng((seed ^ 0x9e3779b9) >>> 0);
  const first = rng.pick(['Ada', 'Grace', 'Linus', 'Zoë', 'José', 'Mei', 'Sven', 'Amara', 'Noor', 'Łukasz']);
  const last = rng.pick(['Lovelace', 'Hopper', 'Nakamura', 'García', 'Müller', 'Okafor', 'Smith', "O'Brien"]);
  const handle = `${first}.${last}`
    .normalize('NFD')
    .replace(/[^A-Za-z.]/g, '')
    .toLowerCase();
  return {
    uuid: rng.uuid(),
    userId: `user-${rng.base62(24)}`,
    name: `${first} ${last}`,
    email: `${handle}${rng.int(1, 99)}@example.com`,
  };
}
