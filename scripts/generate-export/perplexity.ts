/**
 * Perplexity (`perplexity`): the official export's
 * `conversations-<YYYYMMDD>_<HHMMSS>-<hex>.json`, an object
 * `{"conversations": [{context_uuid, context_title, created_at, updated_at,
 * mode, collection_uuid, entries: [{entry_uuid, query, answer, created_at,
 * label, query_status, engine_mode}]}]}`. The title is the first question in
 * full (sometimes several lines); answers cite `[1][2]` with no sources; some
 * answers are empty; `updated_at` is now and then earlier than the last entry;
 * a few conversations write their times without a zone. The archive: that file
 * and the account's spreadsheet (here a stand-in member, never read).
 */
import { Rng } from './rng.ts';
import type { Conversation, Json, Layout, Shape } from './shape.ts';
import { Text } from './text.ts';
import { Clock, isoMicros } from './time.ts';
import { jsonObject } from './writer.ts';

/** 2025-02-01T00:00:00Z */
const START_SECONDS = 1738368000;
const ENGINE_MODES = [null, null, null, 'auto', 'pro', 'pro', 'deep_research'];

class PerplexityConversation {
  /** Times without a zone (`2025-03-04T10:11:12.123456`), as some exports write them. */
  private readonly zoneless: boolean;

  constructor(
    private readonly rng: Rng,
    private readonly clock: Clock,
    private readonly text: Text,
  ) {
    this.zoneless = rng.chance(0.05);
  }

  private time(us: number): string {
    const iso = isoMicros(us);
    return this.zoneless ? iso.slice(0, -1) : iso;
  }

  build(): Conversation {
    const rng = this.rng;
    const created = this.clock.us;
    const entries: Json[] = [];
    const turns = Math.max(1, Math.round(rng.exp(4)));
    for (let turn = 0; turn < turns; turn++) {
      const at = turn === 0 ? created : this.clock.advance(rng.chance(0.1) ? rng.exp(4 * 3600) : rng.exp(120) + 10);
      const failed = rng.chance(0.03);
      entries.push({
        entry_uuid: rng.uuid(),
        query: rng.chance(0.1) ? `${this.text.prompt()}\n${this.text.sentence()}` : this.text.prompt(),
        answer: failed ? '' : this.answer(),
        created_at: this.time(at),
        label: rng.chance(0.02) ? 'reject' : null,
        query_status: failed ? 'FAILED' : 'COMPLETED',
        engine_mode: rng.pick(ENGINE_MODES),
      });
    }
    const last = this.clock.us;
    // updated_at is sometimes a little earlier than the last entry (the export's own quirk).
    const updated = rng.chance(0.05) ? last - Math.round(rng.exp(60) * 1e6) : last + Math.round(rng.exp(30) * 1e6);
    const conversation: Json = {
      context_uuid: rng.uuid(),
      context_title: entries[0]!.query,
      created_at: this.time(created),
      updated_at: this.time(Math.max(created, updated)),
      mode: rng.chance(0.5) ? 'CONCISE' : 'COPILOT',
      collection_uuid: null,
      entries,
    };
    return { records: [conversation], messages: entries.length * 2 };
  }

  /** Markdown whose paragraphs end with citation markers, as Perplexity's answers do. */
  private answer(): string {
    const rng = this.rng;
    return this.text
      .markdown(rng.skewed(200, 6000, 1.6))
      .split('\n\n')
      .map((paragraph) => (rng.chance(0.6) ? `${paragraph}[${rng.int(1, 5)}][${rng.int(6, 10)}]` : paragraph))
      .join('\n\n');
  }
}

/** An endless, deterministic stream of conversations, oldest first. */
export function* conversations(seed: number): Generator<Conversation, never, undefined> {
  const rng = new Rng(seed);
  const clock = new Clock(START_SECONDS + rng.int(0, 86_400));
  for (;;) {
    clock.advance(Math.max(1, rng.exp(6 * 3600)));
    yield new PerplexityConversation(rng, clock, new Text(rng)).build();
  }
}

export const layout: Layout = {
  bare: 'json',
  framing: () => jsonObject('conversations', {}),
  zip: {
    member: () => 'conversations-20250601_093015-4f2a9c1e.json',
    split: false,
    extras: (who) => [{ path: 'user-data-export.csv', content: `email\r\n${who.email}\r\n` }],
  },
};

export const shape: Shape = { provider: 'perplexity', name: 'Perplexity', layout, conversations };
