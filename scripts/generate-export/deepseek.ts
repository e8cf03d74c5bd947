/**
 * DeepSeek (`deepseek`): `conversations.json`, an array of conversations, each a
 * `mapping` tree from a null-message `root` whose nodes ("1", "2", …) carry
 * `fragments` — REQUEST, RESPONSE, THINK (reasoning, deepseek-reasoner), SEARCH
 * with `results` — and `files`; regenerated answers and edited questions stay
 * behind as sibling branches (the branch shown is the one with the latest
 * message); ISO times with a `+08:00` offset; no `current_node`. The archive:
 * conversations.json + user.json.
 */
import { Rng } from './rng.ts';
import type { Conversation, Json, Layout, Shape } from './shape.ts';
import { Text } from './text.ts';
import { Clock, isoLocal } from './time.ts';
import { jsonArray, RawJson } from './writer.ts';

/** 2025-01-20T00:00:00Z, the week DeepSeek-R1 came out. */
const START_SECONDS = 1737331200;
/** DeepSeek writes times in China Standard Time. */
const OFFSET_MINUTES = 8 * 60;
const FILE_TYPES = ['pdf', 'txt', 'docx', 'png', 'jpg', 'csv', 'py', 'md', 'xlsx'];

const time = (us: number) => isoLocal(us, OFFSET_MINUTES, 6);

interface Node {
  id: string;
  parent: string | null;
  children: string[];
  message: Json | null;
}

class DeepSeekConversation {
  /** The mapping's nodes by number: the root, then "1", "2", … */
  private readonly nodes: Node[] = [{ id: 'root', parent: null, children: [], message: null }];
  private readonly reasoner: boolean;
  private readonly searching: boolean;

  constructor(
    private readonly rng: Rng,
    private readonly clock: Clock,
    private readonly text: Text,
  ) {
    this.reasoner = rng.chance(0.4);
    this.searching = rng.chance(0.25);
  }

  build(): Conversation {
    const rng = this.rng;
    const created = this.clock.us;
    const id = rng.uuid();
    const title = rng.chance(0.03) ? '' : this.text.title();
    let parent = 0;
    const turns = Math.max(1, Math.round(rng.exp(4)));
    for (let turn = 0; turn < turns; turn++) {
      // An edited question: the first version and its answer stay behind as a branch.
      if (turn > 0 && rng.chance(0.05)) this.response(this.request(parent));
      const request = this.request(parent);
      // A regenerated answer: the first stays behind as a sibling; the later one continues.
      if (rng.chance(0.08)) this.response(request);
      parent = this.response(request);
    }
    // JSON.stringify of an object would put the integer-like keys before "root"; the export has "root" first.
    const head = JSON.stringify({ id, title, inserted_at: time(created), updated_at: time(this.clock.us) });
    const mapping = this.nodes.map((node) => `${JSON.stringify(node.id)}:${JSON.stringify(node)}`).join(',');
    return { records: [new RawJson(`${head.slice(0, -1)},"mapping":{${mapping}}}`)], messages: this.nodes.length - 1 };
  }

  private add(parent: number, message: Json): number {
    const index = this.nodes.length;
    const id = String(index);
    const parentNode = this.nodes[parent]!;
    this.nodes.push({ id, parent: parentNode.id, children: [], message });
    parentNode.children.push(id);
    return index;
  }

  private request(parent: number): number {
    const rng = this.rng;
    const at = this.clock.advance(rng.chance(0.1) ? rng.exp(4 * 3600) : rng.exp(90) + 5);
    const files: Json[] = [];
    if (rng.chance(0.08)) {
      for (let i = rng.int(1, 3); i > 0; i--) {
        files.push({
          id: `file-${rng.uuid()}`,
          file_name: `${this.text.ident()}.${rng.pick(FILE_TYPES)}`,
          file_size: rng.skewed(200, 5_000_000),
        });
      }
    }
    return this.add(parent, {
      files,
      model: this.model(),
      inserted_at: time(at),
      fragments: [{ type: 'REQUEST', content: this.text.prompt() }],
    });
  }

  private response(parent: number): number {
    const rng = this.rng;
    const model = this.model();
    const fragments: Json[] = [];
    let citations = 0;
    if (this.searching && rng.chance(0.6)) {
      const results: Json[] = [];
      // Now and then a search finds nothing: a fragment with nothing to show.
      const n = rng.chance(0.05) ? 0 : rng.int(3, 10);
      for (let i = 1; i <= n; i++) {
        const url = this.text.url();
        results.push({
          url,
          title: this.text.title(),
          snippet: this.text.sentence(10, 40),
          cite_index: rng.chance(0.6) ? i : null,
          published_at: rng.chance(0.5) ? null : Math.floor(this.clock.us / 1e6) - rng.int(0, 3e7),
          site_name: url.split('/')[2]!,
        });
      }
      citations = n;
      fragments.push({ type: rng.chance(0.1) ? 'TOOL_SEARCH' : 'SEARCH', results });
    }
    if (model === 'deepseek-reasoner') fragments.push({ type: 'THINK', content: this.thinking() });
    let answer = this.text.markdown(rng.skewed(40, 7000, 1.6));
    if (citations > 0)
      answer = answer.replace(/\. /g, (dot) => (rng.chance(0.15) ? `.[citation:${rng.int(1, citations)}] ` : dot));
    fragments.push({ type: 'RESPONSE', content: answer });
    const at = this.clock.advance(model === 'deepseek-reasoner' ? rng.exp(25) + 3 : rng.exp(6) + 1);
    return this.add(parent, { files: [], model, inserted_at: time(at), fragments });
  }

  /** Reasoning as DeepSeek-R1 writes it: plain paragraphs thinking aloud. */
  private thinking(): string {
    const rng = this.rng;
    const out: string[] = [];
    for (let i = rng.skewed(1, 12); i > 0; i--)
      out.push(`${rng.pick(['Okay, ', 'Hmm, ', 'Wait, ', 'So ', 'Alternatively, ', ''])}${this.text.paragraph()}`);
    return out.join('\n\n');
  }

  /** The DeepThink button switches a turn to the reasoner. */
  private model(): string {
    return this.reasoner !== this.rng.chance(0.1) ? 'deepseek-reasoner' : 'deepseek-chat';
  }
}

/** An endless, deterministic stream of conversations, oldest first. */
export function* conversations(seed: number): Generator<Conversation, never, undefined> {
  const rng = new Rng(seed);
  const clock = new Clock(START_SECONDS + rng.int(0, 86_400));
  for (;;) {
    clock.advance(Math.max(1, rng.exp(3 * 3600)));
    yield new DeepSeekConversation(rng, clock, new Text(rng)).build();
  }
}

export const layout: Layout = {
  bare: 'json',
  framing: () => jsonArray(),
  zip: {
    member: () => 'conversations.json',
    split: false,
    extras: (who) => [
      { path: 'user.json', content: JSON.stringify({ user_id: who.uuid, email: who.email, mobile: null }) },
    ],
  },
};

export const shape: Shape = { provider: 'deepseek', name: 'DeepSeek', layout, conversations };
