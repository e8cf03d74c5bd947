import {
  asArray,
  asString,
  externalIdFrom,
  isObject,
  msFrom,
  sourceLine,
  titleFromQuestion,
  type Json,
  type Message,
  type NormalizedConversation,
  type RecordFormat,
} from './format.ts';

/** One question and its answer, as every shape of Perplexity's files gives them. */
interface Turn {
  query: string;
  answer: string;
  /** Unix ms, or null. */
  time: number | null;
  model?: string | undefined;
  sources: Json[];
}

/** The official export's conversation: `context_uuid` and its `entries`. */
const isOfficial = (raw: Json) => typeof raw.context_uuid === 'string' && Array.isArray(raw.entries);

/** The Thread Exporter's older file: the thread in `metadata`, its turns in `conversations`. */
const isOlderThread = (raw: Json) =>
  isObject(raw.metadata) &&
  Array.isArray(raw.conversations) &&
  raw.conversations.some((turn) => isObject(turn) && typeof turn.query === 'string');

/** The Thread Exporter's newer file: Perplexity's own API answer, `entries` with `query_str`. */
const isNewerThread = (raw: Json) =>
  Array.isArray(raw.entries) && raw.entries.some((entry) => isObject(entry) && typeof entry.query_str === 'string');

/**
 * Perplexity (`perplexity`): the official export's one file,
 * `{"conversations": [{context_uuid, context_title, entries: [{query, answer,
 * created_at}]}]}` (its array streamed, as Grok's), and the Perplexity Thread
 * Exporter extension's one-thread files in both their shapes.
 */
export const perplexityExport: RecordFormat = {
  kind: 'record',
  provider: 'perplexity',
  readerVersion: 1,
  zonelessTimes: true,
  // `conversations-<YYYYMMDD>_<HHMMSS>-<hex>.json` (the official zip), `perplexity_*.json` (the extension's).
  zipMembers: /(^|\/)(conversations-\d{8}_\d{6}-[0-9a-f]+|perplexity_[^/]*)\.json$/,
  recognizes: (raw) => isOfficial(raw) || isOlderThread(raw) || isNewerThread(raw),
  normalize(raw, _fileNames, options) {
    const timeZone = options?.timeZone;
    if (isOfficial(raw)) {
      const turns = asArray(raw.entries)
        .filter(isObject)
        .map((entry) => plainTurn(entry, entry.created_at, timeZone));
      return conversation(externalIdFrom(raw.context_uuid), raw.context_title, msFrom(raw.updated_at, timeZone), turns);
    }
    if (isOlderThread(raw)) {
      const metadata = raw.metadata as Json;
      const turns = asArray(raw.conversations)
        .filter(isObject)
        .map((turn) => plainTurn(turn, turn.timestamp, timeZone));
      return conversation(externalIdFrom(metadata.thread_id), metadata.thread_title, null, turns);
    }
    if (!isNewerThread(raw)) return null;
    const entries = asArray(raw.entries).filter(isObject);
    const thread = isObject(raw.thread_metadata) ? raw.thread_metadata : {};
    const turns = entries.map((entry) => ({
      query: asString(entry.query_str) ?? '',
      answer: markdownAnswer(entry),
      time: msFrom(entry.entry_created_datetime, timeZone),
      model: asString(entry.display_model) ?? asString(entry.user_selected_model),
      sources: asArray(entry.sources).filter(isObject),
    }));
    const id = externalIdFrom(thread.thread_id, ...entries.map((entry) => entry.context_uuid));
    // No title of its own is known in this shape: the first question makes it.
    return conversation(id, undefined, null, turns);
  },
};

/**
 * A turn of the official export or of the extension's older file: `query` and
 * `answer` both have, and only the extension's a `model` and `sources`.
 */
const plainTurn = (record: Json, time: unknown, timeZone: string | undefined): Turn => ({
  query: asString(record.query) ?? '',
  answer: asString(record.answer) ?? '',
  time: msFrom(time, timeZone),
  model: asString(record.model),
  sources: asArray(record.sources).filter(isObject),
});

/** The answer of a newer extension entry: its `markdown_block`'s `answer`, else its `chunks` joined. */
function markdownAnswer(entry: Json): string {
  for (const block of asArray(entry.blocks).filter(isObject)) {
    const markdown = block.markdown_block;
    if (!isObject(markdown)) continue;
    const answer = asString(markdown.answer);
    if (answer !== undefined && answer !== '') return answer;
    const chunks = asArray(markdown.chunks).filter((chunk): chunk is string => typeof chunk === 'string');
    if (chunks.length > 0) return chunks.join('');
  }
  return '';
}

/**
 * Each turn (in time order) a `user` message and, when it has one, an
 * `assistant` answer with its sources under it, both at the turn's time.
 * `update_time` is the later of `updated` and the last turn: Perplexity's
 * `updated_at` can be earlier than its own last entry.
 */
function conversation(
  externalId: string | null,
  title: unknown,
  updated: number | null,
  turns: Turn[],
): NormalizedConversation | null {
  if (externalId === null) return null;
  const ordered = turns
    .map((turn, i) => ({ turn, i }))
    .sort((a, b) => (a.turn.time ?? -Infinity) - (b.turn.time ?? -Infinity) || a.i - b.i)
    .map(({ turn }) => turn);
  const messages: Message[] = [];
  for (const { query, answer, time, model, sources } of ordered) {
    const timestamp = time === null ? null : new Date(time).toISOString();
    if (query.trim() !== '') messages.push({ role: 'user', content: query.trim(), timestamp });
    const content = [answer.trim(), ...sources.map(sourceLine)].filter((line) => line !== '').join('\n');
    if (content === '') continue;
    messages.push({ role: 'assistant', content, timestamp, ...(model ? { model } : {}) });
  }
  const times = [updated, ...ordered.map(({ time }) => time)].filter((time): time is number => time !== null);
  const made = titleFromQuestion(title) ?? titleFromQuestion(ordered[0]?.query);
  return {
    externalId,
    title: made,
    updateTime: times.length > 0 ? new Date(Math.max(...times)).toISOString() : null,
    payload: { title: made ?? '', messages },
  };
}
