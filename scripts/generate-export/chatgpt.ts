/**
 * ChatGPT (`openai`): `conversations.json`, an array of conversations, each a
 * `mapping` tree (null-message root, hidden system node, sometimes a
 * user_editable_context node, edit and regenerate branches, code /
 * execution_output pairs, web searches, images, reasoning `thoughts`) with the
 * metadata noise of the real thing, unix-second times and a `current_node`.
 * Half are in the slim 2026 shape: nodes without `children`, messages of only
 * `author, content, create_time, id, metadata`, keys in alphabetical order,
 * `metadata.parent_id` naming nodes not in the file, citations and links in
 * private-use characters, canvases as `:::writing` blocks, now and then no
 * `current_node`. The archive: conversations-000.json… (each at most
 * --split-mb) + user.json + chat.html.
 */
import { Rng } from './rng.ts';
import type { Conversation, Json, Layout, Shape } from './shape.ts';
import { SITES, Text, TLDS } from './text.ts';
import { Clock, START_SECONDS, unixSeconds } from './time.ts';
import { jsonArray } from './writer.ts';

const GPT_MODELS = [
  'gpt-4o',
  'gpt-4o',
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-4',
  'o3',
  'o4-mini',
  'gpt-5',
  'gpt-5-thinking',
  'text-davinci-002-render-sha',
];
const REASONING_MODELS = new Set(['o3', 'o4-mini', 'gpt-5-thinking']);
const AIRPORTS = ['IAD', 'SJC', 'QRO', 'FRA', 'AMS', 'LHR', 'NRT', 'SIN', 'CDG', 'ORD'];

interface Node {
  id: string;
  message: Json | null;
  parent: string | null;
  /** Not in the slim 2026 shape. */
  children?: string[];
}

/** Private-use characters that open, separate and close inline citations and links in 2026 answers. */
const OPEN = '\ue200';
const SEPARATE = '\ue202';
const CLOSE = '\ue201';

class ChatGptConversation {
  private readonly mapping: Record<string, Node> = {};
  private readonly model: string;
  private readonly reasoning: boolean;
  private readonly stopToken: number;
  private readonly clientIds: boolean;
  /** The 2026 shape (see the top of this file). */
  private readonly slim: boolean;
  private requestId = '';

  constructor(
    private readonly rng: Rng,
    private readonly clock: Clock,
    private readonly text: Text,
  ) {
    this.model = rng.pick(GPT_MODELS);
    this.reasoning = REASONING_MODELS.has(this.model);
    this.stopToken = this.model === 'gpt-4' || this.model.startsWith('text-') ? 100260 : 200002;
    this.clientIds = rng.chance(0.5);
    this.slim = rng.chance(0.5);
  }

  build(): Conversation {
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
    if (this.slim) return this.slimConversation(id, title, createUs, current);
    const conversation = {
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
    let messages = 0;
    for (const node of Object.values(this.mapping)) if (node.message !== null) messages++;
    return { records: [conversation], messages };
  }

  /** The 2026 conversation: J1's keys, in alphabetical order, the mapping's too. */
  private slimConversation(id: string, title: string, createUs: number, current: string): Conversation {
    const rng = this.rng;
    const mapping = Object.fromEntries(
      Object.keys(this.mapping)
        .sort()
        .map((key) => [key, this.mapping[key]]),
    );
    const conversation: Json = {
      conversation_id: id,
      conversation_template_id: null,
      create_time: unixSeconds(createUs),
      current_node: current,
      default_model_slug: rng.chance(0.5) ? 'auto' : this.model,
      id,
      is_archived: rng.chance(0.03),
      is_do_not_remember: false,
      is_read_only: false,
      is_starred: null,
      is_study_mode: false,
      mapping,
      memory_scope: 'global_enabled',
      pinned_time: null,
      plugin_ids: null,
      title,
      update_time: unixSeconds(this.clock.advance(rng.exp(30))),
      voice: null,
    };
    if (rng.chance(0.02)) delete conversation.current_node;
    let messages = 0;
    for (const node of Object.values(this.mapping)) if (node.message !== null) messages++;
    return { records: [conversation], messages };
  }

  /** Like ChatGPT's own: the creation time in hex, then random (unique as creation times are). */
  private conversationId(createUs: number): string {
    const seconds = Math.floor(createUs / 1e6)
      .toString(16)
      .padStart(8, '0');
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
    if (this.slim) {
      this.mapping[id] = { id, message, parent: parent ?? null };
      return id;
    }
    const node: Node = {
      id,
      message: message === null ? null : reorderId(message),
      parent: parent ?? null,
      children: [],
    };
    this.mapping[id] = node;
    if (parent !== undefined) this.mapping[parent]!.children!.push(id);
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
    if (rng.chance(0.04))
      parent = this.add(this.assistantMessage(parent, '', { endTurn: null, complete: false }), rng.uuid(), parent);
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
      return this.add(
        this.assistantMessage(parent, this.text.markdown(rng.skewed(300, 5000)), { search: true }),
        rng.uuid(),
        parent,
      );
    }
    const interrupted = rng.chance(0.01);
    return this.add(
      this.assistantMessage(parent, this.text.markdown(rng.skewed(40, 7000, 1.6)), { interrupted }),
      rng.uuid(),
      parent,
    );
  }

  private message(
    role: string,
    name: string | null,
    createUs: number | null,
    content: Json,
    fields: Json,
    metadata: Json,
  ): Json {
    const createTime = createUs === null ? null : unixSeconds(createUs);
    if (this.slim) {
      // Older user messages of a 2026 export have no metadata at all.
      const bare = role === 'user' && metadata.attachments === undefined && this.rng.chance(0.3);
      return { author: { name, role }, content, create_time: createTime, id: '', ...(bare ? {} : { metadata }) };
    }
    return {
      id: '',
      author: { role, name, metadata: {} },
      create_time: createTime,
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
      metadata.attachments = [
        { width, size, height, id: file, name: `${rng.uuid().toUpperCase()}.${rng.pick(['jpeg', 'png'])}` },
      ];
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
      // In 2026 exports it often names a node the file does not hold.
      parent_id: this.slim && this.rng.chance(0.7) ? this.rng.uuid() : parent,
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
      extra.finish_details = options.interrupted
        ? { type: 'interrupted' }
        : { type: 'stop', stop_tokens: [this.stopToken] };
      extra.is_complete = !options.interrupted;
    }
    if (rng.chance(0.3))
      extra.sonic_classification_result = { latency_ms: rng.next() * 1e9, search_prob: rng.next() * 0.2 };
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
    if (this.slim) text = this.withInlineMarkup(text, extra);
    const author = options.search
      ? { role: 'assistant', name: null, metadata: { real_author: 'tool:web' } }
      : undefined;
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

  /**
   * A 2026 answer: a link and citations spelled in private-use characters (each
   * citation with its `content_references` entry), now and then a canvas.
   */
  private withInlineMarkup(text: string, extra: Json): string {
    const rng = this.rng;
    let out = text;
    if (rng.chance(0.3)) out += ` See ${OPEN}url${SEPARATE}${this.text.title()}${SEPARATE}${this.text.url()}${CLOSE}.`;
    if (rng.chance(0.3)) {
      const references: Json[] = [];
      for (let i = rng.int(1, 3); i > 0; i--) {
        const span = `${OPEN}cite${SEPARATE}turn0search${rng.int(0, 9)}${CLOSE}`;
        const url = this.text.url();
        references.push({
          alt: `([${rng.pick(SITES)}](${url}))`,
          matched_text: span,
          prompt_text: null,
          title: this.text.title(),
          type: 'grouped_webpages',
          url,
        });
        out += ` ${this.text.sentence()} ${span}`;
      }
      extra.content_references = references;
    }
    if (rng.chance(0.03)) {
      out += `\n\n:::writing{variant="document" id="${rng.int(10000, 99999)}" title="${this.text.title()}"}\n${this.text.markdown(rng.skewed(200, 3000))}\n:::`;
    }
    return out;
  }

  private thoughtsMessage(parent: string): Json {
    const rng = this.rng;
    const at = this.clock.advance(rng.exp(3) + 0.5);
    const thoughts: Json[] = [];
    const n = rng.int(1, 4);
    for (let i = 0; i < n; i++) {
      // In 2026 exports only the summary survives.
      thoughts.push({
        summary: this.text.title(),
        content: this.slim ? '' : this.text.markdown(rng.skewed(100, 2500)),
        chunks: [],
        finished: true,
      });
    }
    return this.message(
      'assistant',
      null,
      at,
      { content_type: 'thoughts', thoughts, source_analysis_msg_id: rng.uuid() },
      {},
      this.assistantMetadata(parent, {
        reasoning_status: 'is_reasoning',
        citations: [],
        content_references: [],
        classifier_response: 'default',
      }),
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
          in_kernel_exception: failed
            ? { name: 'KeyError', traceback: [output.slice(0, 300)], args: [this.text.ident()], notes: [] }
            : null,
          system_exception: null,
          messages: [],
          jupyter_messages: [
            {
              msg_type: 'status',
              parent_header: { msg_id: rng.hex32(), version: '5.3' },
              content: { execution_state: 'busy' },
            },
            { msg_type: 'execute_input', parent_header: { msg_id: rng.hex32(), version: '5.3' } },
            {
              msg_type: 'status',
              parent_header: { msg_id: rng.hex32(), version: '5.3' },
              content: { execution_state: 'idle' },
            },
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
      this.assistantMetadata(parent, {
        is_visually_hidden_from_conversation: true,
        command: 'search',
        status: 'finished',
        is_complete: true,
      }),
    );
  }
}

/** Real exports list `id` first in a message; `add` sets it after the fact. */
function reorderId(message: Json): Json {
  const { id, ...rest } = message;
  return { id, ...rest };
}

/** An endless, deterministic stream of conversations, oldest first. */
export function* conversations(seed: number): Generator<Conversation, never, undefined> {
  const rng = new Rng(seed);
  const clock = new Clock(START_SECONDS + rng.int(0, 86_400));
  for (;;) {
    // Strictly later than the last conversation, so ChatGPT's time-prefixed ids never repeat.
    clock.advance(Math.max(1, rng.exp(3 * 3600)));
    yield new ChatGptConversation(rng, clock, new Text(rng)).build();
  }
}

const CHAT_HTML =
  '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="UTF-8">\n<title>ChatGPT Data Export</title>\n</head>\n<body>\n<div id="root"></div>\n' +
  '<script>\n// The real chat.html embeds every conversation as jsonData; this generated one stays small.\n' +
  'var jsonData = [];\n</script>\n</body>\n</html>\n';

export const layout: Layout = {
  bare: 'json',
  framing: () => jsonArray(),
  zip: {
    member: (index) => `conversations-${String(index).padStart(3, '0')}.json`,
    split: true,
    extras: (who) => [
      {
        path: 'user.json',
        content: JSON.stringify({ id: who.userId, email: who.email, chatgpt_plus_user: true, phone_number: null }),
      },
      { path: 'chat.html', content: CHAT_HTML },
    ],
  },
};

export const shape: Shape = { provider: 'openai', name: 'ChatGPT', layout, conversations };
