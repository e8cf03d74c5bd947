/**
 * Gemini (`google`): Takeout's `My Activity.json` for Gemini Apps, an array of
 * activity entries, NEWEST FIRST. Each `Prompted …` entry is one exchange: the
 * prompt in the title, the answer as HTML in `safeHtmlItem` (paragraphs, lists,
 * code blocks, tables, links; sometimes several drafts, the last one kept; now
 * and then no answer), attachments in `subtitles` or `imageFile`. Between them,
 * entries that are not messages (`Gave feedback: …`, `Selected preferred draft`,
 * `Created …`, `Used …`). There is no conversation id: the exchanges of one
 * conversation are less than 30 minutes apart and conversations are separated by
 * longer gaps — except that some conversations' entries carry a `titleUrl`
 * naming them (`https://gemini.google.com/app/<id>`), and those may be resumed
 * hours later. Conversations are generated from the newest back in time, so the
 * file streams out newest first. The archive:
 * Takeout/My Activity/Gemini Apps/My Activity.json + Takeout/archive_browser.html.
 */
import { Rng } from './rng.ts';
import type { Conversation, Json, Layout, Shape } from './shape.ts';
import { Text } from './text.ts';
import { Clock, isoMillis } from './time.ts';
import { jsonArray } from './writer.ts';

/** 2025-10-01T00:00:00Z: the newest activity; the file goes back in time from here. */
const END_SECONDS = 1759276800;
/** Exchanges less than this apart are one conversation (when no titleUrl says otherwise). */
const SAME_CONVERSATION_SECONDS = 30 * 60;
const ATTACHMENTS = ['pdf', 'png', 'jpg', 'txt', 'docx', 'csv', 'xlsx', 'pptx'];
const TOOLS = ['Google Maps', 'Google Flights', 'Google Hotels', 'YouTube', 'Google Workspace'];

interface Entry {
  /** Seconds after the conversation's first exchange. */
  at: number;
  fields: Json;
}

class GeminiConversation {
  private readonly entries: Entry[] = [];
  private readonly titleUrl: string | null;
  private messages = 0;

  constructor(
    private readonly rng: Rng,
    private readonly clock: Clock,
    private readonly text: Text,
  ) {
    this.titleUrl = rng.chance(0.3) ? `https://gemini.google.com/app/${rng.hex16()}` : null;
  }

  build(): Conversation {
    const rng = this.rng;
    const exchanges = Math.max(1, Math.round(rng.exp(3.5)));
    let at = 0;
    for (let i = 0; i < exchanges; i++) {
      if (i > 0) {
        // Under 30 minutes to the next prompt; a conversation named by its titleUrl may also be resumed hours later.
        const resumed = this.titleUrl !== null && rng.chance(0.05);
        at += resumed
          ? SAME_CONVERSATION_SECONDS + rng.exp(6 * 3600)
          : Math.min(rng.exp(100) + 5, SAME_CONVERSATION_SECONDS - 300);
      }
      at = this.exchange(at);
    }
    // Back from the newer conversation (or the newest time) by a gap over 30 minutes, then back by this conversation's span.
    this.clock.rewind(SAME_CONVERSATION_SECONDS + 60 + rng.exp(3 * 3600));
    const first = this.clock.rewind(at);
    const records: Json[] = [];
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const { at: offset, fields } = this.entries[i]!;
      const time = isoMillis(first + offset * 1e6);
      records.push(this.entry(fields, time));
    }
    return { records, messages: this.messages };
  }

  /** Header, title, titleUrl, subtitles, time, products, activityControls, then the rest, as Takeout orders them. */
  private entry(fields: Json, time: string): Json {
    const { title, titleUrl, subtitles, ...rest } = fields;
    const entry: Json = { header: 'Gemini Apps', title };
    if (titleUrl !== undefined) entry.titleUrl = titleUrl;
    if (subtitles !== undefined) entry.subtitles = subtitles;
    entry.time = time;
    entry.products = ['Gemini Apps'];
    entry.activityControls = ['Gemini Apps Activity'];
    return Object.assign(entry, rest);
  }

  /** One prompt and its answer at `at`, and maybe an entry that is not a message after it. Returns the time of the last entry. */
  private exchange(at: number): number {
    const rng = this.rng;
    const fields: Json = { title: `Prompted ${this.text.prompt()}` };
    if (this.titleUrl !== null) fields.titleUrl = this.titleUrl;
    this.messages++;
    if (rng.chance(0.08)) {
      const n = rng.int(1, 3);
      const subtitles: Json[] = [{ name: `Attached ${n} file${n === 1 ? '' : 's'}.` }];
      for (let i = 0; i < n; i++) {
        const ext = rng.pick(ATTACHMENTS);
        const name = `${this.text.ident()}.${ext}`;
        subtitles.push({ name: `-  ${name}`, url: `${name.slice(0, -ext.length - 1)}-${rng.hex4()}.${ext}` });
      }
      fields.subtitles = subtitles;
    }
    let drafts = 0;
    if (rng.chance(0.98)) {
      drafts = rng.chance(0.08) ? rng.int(2, 3) : 1;
      const items: Json[] = [];
      for (let i = 0; i < drafts; i++)
        items.push({ html: this.text.html(rng.skewed(40, i < drafts - 1 ? 3000 : 7000, 1.6)) });
      fields.safeHtmlItem = items;
      this.messages++;
    }
    if (rng.chance(0.04)) fields.imageFile = `image_${rng.hex8().slice(0, 6)}.png`;
    this.entries.push({ at, fields });

    // What the person did next that is not a message, a little later (at most four minutes in all,
    // so that the next prompt stays under 30 minutes after this one).
    const later = () => (at += Math.min(rng.exp(20) + 1, 60));
    if (drafts > 1 && rng.chance(0.5))
      this.entries.push({ at: later(), fields: { title: 'Selected preferred draft' } });
    if (rng.chance(0.04))
      this.entries.push({
        at: later(),
        fields: { title: `Gave feedback: ${rng.chance(0.7) ? 'Good response' : 'Bad response'}` },
      });
    if (rng.chance(0.02))
      this.entries.push({
        at: later(),
        fields: { title: `Created ${rng.pick(['Canvas', 'Deep Research report', 'Gem'])} ${this.text.title()}` },
      });
    if (rng.chance(0.02)) this.entries.push({ at: later(), fields: { title: `Used ${rng.pick(TOOLS)}` } });
    return at;
  }
}

/** An endless, deterministic stream of conversations, NEWEST first, each with its entries newest first. */
export function* conversations(seed: number): Generator<Conversation, never, undefined> {
  const rng = new Rng(seed);
  const clock = new Clock(END_SECONDS - rng.int(0, 86_400));
  for (;;) yield new GeminiConversation(rng, clock, new Text(rng)).build();
}

const ARCHIVE_BROWSER =
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Archive Overview</title>\n</head>\n<body>\n' +
  '<h1>Archive Overview</h1>\n<p>Your archive contains the following products:</p>\n' +
  '<ul>\n<li>My Activity: 1 file (Gemini Apps, JSON)</li>\n</ul>\n</body>\n</html>\n';

export const layout: Layout = {
  bare: 'json',
  framing: () => jsonArray(2),
  zip: {
    member: () => 'Takeout/My Activity/Gemini Apps/My Activity.json',
    split: false,
    extras: () => [{ path: 'Takeout/archive_browser.html', content: ARCHIVE_BROWSER }],
  },
};

export const shape: Shape = { provider: 'google', name: 'Gemini', layout, conversations };
