/**
 * Microsoft Copilot (`microsoft`): `copilot-activity-history.csv` from the
 * privacy dashboard — UTF-8 with a byte-order mark, CRLF line ends, RFC 4180
 * quoting (messages hold commas, quotes and newlines), the header
 * `Conversation,Time,Author,Message`, one row per message (`user` or `AI`), in
 * time order. A conversation is its name plus time: its rows are under 30
 * minutes apart, conversations are further apart, and a name comes back days
 * later for another conversation. Times are ISO 8601, some with an offset, some
 * without (UTC). The archive: copilot-activity-history.csv + search-history.csv.
 */
import { Rng } from './rng.ts';
import type { Conversation, Layout, Shape } from './shape.ts';
import { Text } from './text.ts';
import { Clock, isoLocal } from './time.ts';
import { csv } from './writer.ts';

/** 2024-10-01T00:00:00Z */
const START_SECONDS = 1727740800;
/** Rows of one name less than this apart are one conversation. */
const SAME_CONVERSATION_SECONDS = 30 * 60;
const OFFSETS = [60, 120, -300, -420, -480, 330, 540, 0];
const HEADER = ['Conversation', 'Time', 'Author', 'Message'];

class CopilotConversation {
  private readonly rows: string[][] = [];
  /** Minutes east of UTC, or null: a time without an offset (UTC). */
  private readonly offset: number | null;
  private readonly millis: boolean;

  constructor(
    private readonly rng: Rng,
    private readonly clock: Clock,
    private readonly text: Text,
    private readonly name: string,
  ) {
    this.offset = rng.chance(0.6) ? null : rng.pick(OFFSETS);
    this.millis = rng.chance(0.2);
  }

  build(): Conversation {
    const rng = this.rng;
    const turns = Math.max(1, Math.round(rng.exp(4)));
    for (let turn = 0; turn < turns; turn++) {
      // Always under 30 minutes after the previous row.
      if (turn > 0) this.clock.advance(Math.min(rng.exp(90) + 5, SAME_CONVERSATION_SECONDS - 120));
      this.row('user', this.text.prompt());
      this.clock.advance(Math.min(rng.exp(6) + 1, 60));
      this.row('AI', this.text.markdown(rng.skewed(40, 5000, 1.6)));
    }
    return { records: this.rows, messages: this.rows.length };
  }

  private row(author: string, message: string): void {
    const time = this.offset === null ? isoLocal(this.clock.us, 0, this.millis ? 3 : 0, false) : isoLocal(this.clock.us, this.offset, this.millis ? 3 : 0);
    this.rows.push([this.name, this.offset === 0 ? time.replace('+00:00', 'Z') : time, author, message]);
  }
}

/** Copilot names a conversation from its first prompt: a few words, sometimes with a comma or quotes. */
function conversationName(rng: Rng, text: Text): string {
  const title = text.title();
  const r = rng.next();
  if (r < 0.15) return `${title}, ${text.words(rng.int(1, 2))}`;
  if (r < 0.2) return `"${title}" ${text.word()}`;
  return title;
}

/** An endless, deterministic stream of conversations, oldest first. */
export function* conversations(seed: number): Generator<Conversation, never, undefined> {
  const rng = new Rng(seed);
  const clock = new Clock(START_SECONDS + rng.int(0, 86_400));
  const recent: string[] = [];
  for (;;) {
    // Over 30 minutes after the last conversation; a name used before comes back days later.
    clock.advance(SAME_CONVERSATION_SECONDS + 60 + rng.exp(3 * 3600));
    const text = new Text(rng);
    let name: string;
    if (recent.length > 0 && rng.chance(0.1)) {
      name = rng.pick(recent);
      clock.advance(rng.int(1, 10) * 86_400);
    } else {
      name = conversationName(rng, text);
      if (recent.length === 20) recent.shift();
      recent.push(name);
    }
    yield new CopilotConversation(rng, clock, text, name).build();
  }
}

/** Another CSV of the same download, which an importer ignores. */
function searchHistory(seed: number): string {
  const meta = new Rng((seed ^ 0x85ebca6b) >>> 0);
  const text = new Text(meta);
  const clock = new Clock(START_SECONDS);
  const { head, record } = csv(['Time', 'Query', 'Url']);
  const rows: string[] = [head];
  for (let i = meta.int(5, 30); i > 0; i--) {
    const query = text.words(meta.int(1, 6));
    rows.push(record([isoLocal(clock.advance(meta.exp(86_400)), 0, 0, false), query, `https://www.bing.com/search?q=${encodeURIComponent(query)}`]));
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
