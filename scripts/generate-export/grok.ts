/**
 * Grok (`xai`): `prod-grok-backend.json`, an object
 * `{"conversations": [{conversation, responses}], "projects", "tasks", "media_posts"}`.
 * Responses carry `$date`/`$numberLong` times (older ones `{"$date": ISO}` or a
 * bare ISO string), a `parent_response_id` tree (regenerated answers and edited
 * prompts are siblings; older conversations have no parent ids at all), senders
 * in mixed case (`human`, `assistant`, `ASSISTANT`, a model name),
 * `thinking_trace`, `cited_web_search_results`, generated images and file
 * attachments, and sometimes come out of time order. The archive:
 * ttl/30d/export_data/<uuid>/prod-grok-backend.json + prod-mc-auth-mgmt-api.json.
 */
import { Rng } from './rng.ts';
import type { Conversation, Json, Layout, Shape } from './shape.ts';
import { account, Text, type Account } from './text.ts';
import { Clock, isoMicros, isoMillis, millis } from './time.ts';
import { jsonObject } from './writer.ts';

/** 2024-12-01T00:00:00Z */
const START_SECONDS = 1733011200;
const MODELS = ['grok-3', 'grok-3', 'grok-3', 'grok-4', 'grok-2', 'grok-3-mini'];
const ASSISTANT_SENDERS = ['assistant', 'assistant', 'assistant', 'ASSISTANT', 'model'];

/** Fields every response has, after its own. */
const DEFAULTS: Json = {
  manual: false,
  partial: false,
  shared: false,
  query: '',
  query_type: '',
  xpost_ids: [],
  galleries: [],
};

type TimeStyle = 'numberLong' | 'dateIso' | 'iso';

class GrokConversation {
  private readonly responses: Json[] = [];
  private readonly id: string;
  private readonly model: string;
  private readonly reasoning: boolean;
  private readonly timeStyle: TimeStyle;
  private readonly parents: boolean;
  private readonly human: string;
  private readonly assistant: string;

  constructor(
    private readonly rng: Rng,
    private readonly clock: Clock,
    private readonly text: Text,
    private readonly userId: string,
  ) {
    this.id = rng.uuid();
    this.model = rng.pick(MODELS);
    this.reasoning = this.model === 'grok-4' || rng.chance(0.25);
    const t = rng.next();
    this.timeStyle = t < 0.85 ? 'numberLong' : t < 0.97 ? 'dateIso' : 'iso';
    // Older exports have no parent_response_id: the responses are one line, in time order.
    this.parents = rng.chance(0.85);
    this.human = rng.chance(0.9) ? 'human' : 'HUMAN';
    const sender = rng.pick(ASSISTANT_SENDERS);
    this.assistant = sender === 'model' ? this.model : sender;
  }

  build(): Conversation {
    const rng = this.rng;
    const created = this.clock.us;
    let parent: string | null = null;
    const turns = Math.max(1, Math.round(rng.exp(4)));
    for (let turn = 0; turn < turns; turn++) {
      // An edited prompt: the first version and its answer stay behind as a branch.
      if (this.parents && turn > 0 && rng.chance(0.05)) this.answer(this.prompt(parent));
      const prompt = this.prompt(parent);
      // A regenerated answer: the first stays behind as a sibling; the later one continues.
      if (this.parents && rng.chance(0.07)) this.answer(prompt);
      parent = this.answer(prompt);
    }
    // Now and then the export lists a conversation's responses out of time order.
    if (rng.chance(0.1)) {
      for (let i = this.responses.length - 1; i > 0; i--) {
        const j = rng.int(0, i);
        [this.responses[i], this.responses[j]] = [this.responses[j]!, this.responses[i]!];
      }
    }
    const header: Json = {
      id: this.id,
      user_id: this.userId,
      title: rng.chance(0.02) ? '' : this.text.title(),
      summary: rng.chance(0.3) ? this.text.sentence(8, 30) : '',
      create_time: isoMicros(created),
    };
    if (rng.chance(0.97)) header.modify_time = isoMicros(this.clock.advance(rng.exp(20)));
    Object.assign(header, { starred: rng.chance(0.05), temporary: false, system_prompt_name: '', media_types: [] });
    return { records: [{ conversation: header, responses: this.responses }], messages: this.responses.length };
  }

  private time(us: number): unknown {
    if (this.timeStyle === 'numberLong') return { $date: { $numberLong: String(millis(us)) } };
    if (this.timeStyle === 'dateIso') return { $date: isoMillis(us) };
    return isoMillis(us);
  }

  private add(fields: Json, parent: string | null): string {
    const id = this.rng.uuid();
    const response: Json = { _id: id, conversation_id: this.id, ...fields };
    if (this.parents && parent !== null) response.parent_response_id = parent;
    for (const [key, value] of Object.entries(DEFAULTS)) if (!(key in response)) response[key] = value;
    this.responses.push({ response, share_link: null });
    return id;
  }

  private prompt(parent: string | null): string {
    const rng = this.rng;
    const at = this.clock.advance(rng.chance(0.1) ? rng.exp(4 * 3600) : rng.exp(90) + 5);
    const fields: Json = { message: this.text.prompt(), sender: this.human, create_time: this.time(at) };
    if (rng.chance(0.06)) {
      const files: string[] = [];
      for (let i = rng.int(1, 3); i > 0; i--) files.push(rng.uuid());
      fields.file_attachments = files;
    }
    return this.add(fields, parent);
  }

  private answer(parent: string): string {
    const rng = this.rng;
    const started = this.clock.us;
    const at = this.clock.advance(this.reasoning ? rng.exp(30) + 4 : rng.exp(6) + 1);
    const fields: Json = { message: '', sender: this.assistant, create_time: this.time(at), model: this.model };
    if (rng.chance(0.04)) {
      // An image request: the answer is the pictures.
      const images: string[] = [];
      for (let i = rng.int(1, 4); i > 0; i--) images.push(`users/${this.userId}/generated/${rng.uuid()}/image.jpg`);
      fields.message = rng.chance(0.3) ? this.text.sentence(3, 12) : '';
      Object.assign(fields, {
        generated_image_urls: images,
        image_edit_uris: [],
        query: this.text.words(rng.int(2, 8)),
        query_type: 'imagine',
      });
      return this.add(fields, parent);
    }
    fields.message = this.text.markdown(rng.skewed(40, 7000, 1.6));
    if (this.reasoning) {
      fields.thinking_trace = this.thinking();
      fields.thinking_start_time = this.time(started);
      fields.thinking_end_time = this.time(at);
      if (this.model === 'grok-4' && rng.chance(0.1)) {
        const agents: Json[] = [];
        for (let i = rng.int(2, 4); i > 0; i--) agents.push({ agent_id: rng.hex8(), thinking_trace: this.thinking() });
        fields.agent_thinking_traces = agents;
      }
    }
    if (rng.chance(0.15)) {
      const searched: Json[] = [];
      for (let i = rng.int(3, 12); i > 0; i--)
        searched.push({ url: this.text.url(), title: this.text.title(), preview: this.text.sentence(10, 40) });
      fields.web_search_results = searched;
      fields.cited_web_search_results = searched.filter(() => rng.chance(0.5));
    }
    return this.add(fields, parent);
  }

  private thinking(): string {
    const out: string[] = [];
    for (let i = this.rng.skewed(1, 10); i > 0; i--) out.push(this.text.paragraph());
    if (this.rng.chance(0.2))
      out.unshift(`<xai:tool_usage_card><xai:tool_name>web_search</xai:tool_name></xai:tool_usage_card>`);
    return out.join('\n\n');
  }
}

/** An endless, deterministic stream of conversations, oldest first. */
export function* conversations(seed: number): Generator<Conversation, never, undefined> {
  const rng = new Rng(seed);
  const clock = new Clock(START_SECONDS + rng.int(0, 86_400));
  const userId = account(seed).uuid;
  for (;;) {
    clock.advance(Math.max(1, rng.exp(3 * 3600)));
    yield new GrokConversation(rng, clock, new Text(rng), userId).build();
  }
}

/** The object's other keys, after `conversations`: a few projects, no tasks, no media posts. */
function rest(who: Account, seed: number): Json {
  const meta = new Rng((seed ^ 0x85ebca6b) >>> 0);
  const text = new Text(meta);
  const clock = new Clock(START_SECONDS - 86_400 * meta.int(1, 60));
  const projects: Json[] = [];
  for (let i = meta.int(0, 3); i > 0; i--) {
    projects.push({
      id: meta.uuid(),
      user_id: who.uuid,
      name: text.title(),
      custom_personality: meta.chance(0.5) ? text.paragraph() : '',
      create_time: isoMicros(clock.advance(meta.exp(86_400))),
    });
  }
  return { projects, tasks: [], media_posts: [] };
}

const folder = (who: Account) => `ttl/30d/export_data/${who.uuid}`;

export const layout: Layout = {
  bare: 'json',
  framing: (who, seed) => jsonObject('conversations', rest(who, seed)),
  zip: {
    member: (_, who) => `${folder(who)}/prod-grok-backend.json`,
    split: false,
    extras: (who) => {
      const [givenName, familyName] = who.name.split(' ');
      const user = {
        userId: who.uuid,
        email: who.email,
        givenName,
        familyName,
        createTime: isoMillis(START_SECONDS * 1e6),
      };
      return [{ path: `${folder(who)}/prod-mc-auth-mgmt-api.json`, content: JSON.stringify({ user }) }];
    },
  },
};

export const shape: Shape = { provider: 'xai', name: 'Grok', layout, conversations };
