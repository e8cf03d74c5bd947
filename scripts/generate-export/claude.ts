/**
 * Claude (`anthropic`): `conversations.json`, an array of conversations with flat
 * `chat_messages` — text, thinking, tool_use/tool_result blocks (web search,
 * artifacts, the analysis tool), attachments with extracted content, and files —
 * and ISO times with microseconds. The archive: conversations.json + users.json +
 * projects.json.
 */
import { Rng } from './rng.ts';
import type { Conversation, Json, Layout, Shape } from './shape.ts';
import { account, Text, type Account } from './text.ts';
import { Clock, isoMicros, START_SECONDS } from './time.ts';
import { jsonArray } from './writer.ts';

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
    private readonly text: Text,
    private readonly accountUuid: string,
  ) {
    this.thinking = rng.chance(0.25);
  }

  build(): Conversation {
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
    const conversation = {
      uuid,
      name: rng.chance(0.03) ? '' : this.text.title(),
      summary: rng.chance(0.2) ? this.text.paragraph() : '',
      created_at: isoMicros(createdUs),
      updated_at: isoMicros(updatedUs),
      account: { uuid: this.accountUuid },
      chat_messages: messages,
    };
    return { records: [conversation], messages: messages.length };
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
        const extracted =
          ext === 'csv' || ext === 'log'
            ? this.text.log(rng.skewed(10, 400))
            : this.text.markdown(rng.skewed(300, 20000));
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
      const output = failed
        ? { status: 'error', logs, error: `ReferenceError: ${this.text.ident()} is not defined` }
        : { status: 'success', logs };
      result('repl', [{ type: 'text', text: JSON.stringify(output), uuid: rng.uuid() }], failed, 1);
    }
  }
}

/** An endless, deterministic stream of conversations, oldest first. */
export function* conversations(seed: number): Generator<Conversation, never, undefined> {
  const rng = new Rng(seed);
  const clock = new Clock(START_SECONDS + rng.int(0, 86_400));
  const who = account(seed).uuid;
  for (;;) {
    clock.advance(Math.max(1, rng.exp(3 * 3600)));
    yield new ClaudeConversation(rng, clock, new Text(rng), who).build();
  }
}

/** projects.json: a few projects with their knowledge documents, from a PRNG of their own. */
function projects(who: Account, seed: number): Json[] {
  const meta = new Rng((seed ^ 0x85ebca6b) >>> 0);
  const out: Json[] = [];
  const clock = new Clock(START_SECONDS - 86_400 * meta.int(1, 60));
  for (let i = meta.int(1, 4); i > 0; i--) {
    const text = new Text(meta);
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
    out.push({
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
  return out;
}

export const layout: Layout = {
  bare: 'json',
  framing: () => jsonArray(),
  zip: {
    member: () => 'conversations.json',
    split: false,
    extras: (who, seed) => [
      {
        path: 'users.json',
        content: JSON.stringify([
          { uuid: who.uuid, full_name: who.name, email_address: who.email, verified_phone_number: null },
        ]),
      },
      { path: 'projects.json', content: JSON.stringify(projects(who, seed)) },
    ],
  },
};

export const shape: Shape = { provider: 'anthropic', name: 'Claude', layout, conversations };
