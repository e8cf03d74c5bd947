/**
 * Microsoft Copilot (`microsoft`): `copilot-activity-history.csv` from the
 * privacy dashboard — UTF-8 with a byte-order mark, CRLF line ends, RFC 4180
 * quoting (messages hold commas, quotes and newlines), the header
 * `Conversation,Time,Author,Message`, one row per message (`Human` or `AI`),
 * NEWEST FIRST, a prompt and its answer stamped with the same second (the answer
 * first in the file). A thread is its name: now and then it is resumed days or
 * weeks later. Rows without a name (now and then an empty `Human` row: an upload)
 * are grouped by 30-minute gaps. Times are ISO 8601, mostly without an offset
 * (UTC), some with one. Conversations are generated from the newest back in
 * time, each contiguous, so the file streams out newest first. The archive:
 * copilot-activity-history.csv + search-history.csv.
 */
import { Rng } from './rng.ts';
import type { Conversation, Layout, Shape } from './shape.ts';
import { Text } from './text.ts';
import { Clock, isoLocal } from './time.ts';
import { csv } from './writer.ts';

/** 2025-10-01T00:00:00Z: the newest row; the file goes back in time from here. */
const END_SECONDS = 1759276800;
/** Nameless rows less than this apart are one conversation. */
const SAME_CONVERSATION_SECONDS = 30 * 60;
const OFFSETS = [60, 120, -300, -420, -480, 330, 540, 0];
const HEADER = ['Conversation', 'Time', 'Author', 'Message'];
/** Microsoft cuts some answers to this many characters, ending them in `...`. */
const CUT_ANSWER = 100;

class CopilotConversation {
  /** Seconds after the thread's first row, and the row without its time. */
  private readonly turns: Array<{ at: number; prompt: string; answer: string }> = [];
  /** Minutes east of UTC, or null: a time without an offset (UTC). */
  private readonly offset: number | null;
  private readonly millis: boolean;

  constructor(
    private readonly rng: Rng,
    private readonly clock: Clock,
    private readonly text: Text,
    private readonly name: string,
  ) {
    this.offset = rng.chance(0.7) ? null : rng.pick(OFFSETS);
    this.millis = rng.chance(0.2);
  }

  build(): Conversation {
    const rng = this.rng;
    const turns = Math.max(1, Math.round(rng.exp(4)));
    let at = 0;
    for (let turn = 0; turn < turns; turn++) {
      if (turn > 0) {
        // Under 30 minutes after the previous turn; a named thread may be resumed days later.
        const resumed = this.name !== '' && rng.chance(0.05);
        at += resumed ? rng.int(1, 21) * 86_400 : Math.min(rng.exp(90) + 5, SAME_CONVERSATION_SECONDS - 120);
      }
      // An upload is an empty prompt row, seen in threads without a name.
      const prompt = this.name === '' && rng.chance(0.3) ? '' : this.text.prompt();
      const answer = this.text.markdown(rng.skewed(40, 5000, 1.6));
      this.turns.push({
        at,
        prompt,
        answer: rng.chance(0.1) && answer.length > CUT_ANSWER ? `${answer.slice(0, CUT_ANSWER - 3)}...` : answer,
      });
    }
    // Back from the newer conversation (or the newest time) by a gap over 30 minutes, then back by this thread's span.
    this.clock.rewind(SAME_CONVERSATION_SECONDS + 60 + rng.exp(3 * 3600));
    const first = this.clock.rewind(at);
    const rows: string[][] = [];
    for (let i = this.turns.length - 1; i >= 0; i--) {
      const { at: offset, prompt, answer } = this.turns[i]!;
      const time = this.time(first + offset * 1e6);
      rows.push([this.name, time, 'AI', answer], [this.name, time, 'Human', prompt]);
    }
    return { records: rows, messages: rows.length };
  }

  private time(us: number): string {
    if (this.offset === null) return isoLocal(us, 0, this.millis ? 3 : 0, false);
    const time = isoLocal(us, this.offset, this.millis ? 3 : 0);
    return this.offset === 0 ? time.replace('+00:00', 'Z') : time;
  }
}

/** Copilot names a conversation from its first prompt: a few words, sometimes with a comma or quotes; some threads have no name. */
function conversationName(rng: Rng, text: Text): string {
  const title = text.title();
  const r = rng.next();
  if (r < 0.1) return '';
  if (r < 0.25) return `${title}, ${text.words(rng.int(1, 2))}`;
  if (r < 0.3) return `"${title}" ${text.word()}`;
  return title;
}

/** An endless, deterministic stream of conversations, NEWEST first, each with its rows newest first. */
export function* conversations(seed: number): Generator<Conversation, never, undefined> {
  const rng = new Rng(seed);
  const clock = new Clock(END_SECONDS - rng.int(0, 86_400));
  for (;;) {
    const text = new Text(rng);
    yield new CopilotConversation(rng, clock, text, conversationName(rng, text)).build();
  }
}

/** Another CSV of the same download, which an importer ignores. */
function searchHistory(seed: number): string {
  const meta = new Rng((seed ^ 0x85ebca6b) >>> 0);
  const text = new Text(meta);
  const clock = new Clock(END_SECONDS - 365 * 86_400);
  const { head, record } = csv(['Time', 'Query', 'Url']);
  const rows: string[] = [head];
  for (let i = meta.int(5, 30); i > 0; i--) {
    const query = text.words(meta.int(1, 6));
    rows.push(
      record([
        isoLocal(clock.advance(meta.exp(86_400)), 0, 0, false),
        query,
        `https://www.bing.com/search?q=${encodeURIComponent(query)}`,
      ]),
    );
  }
  return rows.join('');
}

export const layout: Layout = {
  bare: 'csv',
  framing: () => csv(HEADER),
  zip: {
    member: () => 'copilot-activity-history.csv',
    split: false,
    extras: (_, seed) => [{ path: 'search-history.csv', content: searchHistory(seed) }],
  },
};

export const shape: Shape = { provider: 'microsoft', name: 'Copilot', layout, conversations };
