/**
 * Le Chat (`mistral`): `chat-export-<ms>.zip` holds one `chat-<chatId>.json` per
 * conversation, a bare array of messages `{id, version, chatId, content,
 * contentChunks, role, createdAt, …, canvas, quotes, files}`, listed out of
 * order now and then. Answers carry `contentChunks`: a reasoning `text` chunk
 * (`_context.type: "reasoning"`), `tool_call`s, `reference`s and the answer again
 * as the last text chunk; the person's messages `contentChunks: null`. The
 * generator's zip holds the messages of many conversations in each
 * `chat-<n>.json` (split by `--split-mb`), which Parley reads the same way: by
 * each message's `chatId`.
 */
import { Rng } from './rng.ts';
import type { Conversation, Json, Layout, Shape } from './shape.ts';
import { Text } from './text.ts';
import { Clock, isoMillis, millis } from './time.ts';
import { jsonArray } from './writer.ts';

/** 2025-09-01T00:00:00Z */
const START_SECONDS = 1756684800;

function message(chatId: string, role: 'user' | 'assistant', us: number, content: string, rng: Rng): Json {
  return {
    id: rng.uuid(),
    version: 0,
    chatId,
    content,
    contentChunks: null,
    role,
    createdAt: isoMillis(us),
    reaction: 'neutral',
    reactionDetail: null,
    reactionComment: null,
    preference: null,
    preferenceOver: null,
    context: { openCanvaId: null, initiatedFromUrlQuery: false },
    canvas: [],
    quotes: [],
    files: [],
  };
}

function* conversations(seed: number): Generator<Conversation, never, undefined> {
  const rng = new Rng(seed);
  const clock = new Clock(START_SECONDS + rng.int(0, 86_400));
  for (;;) {
    clock.advance(Math.max(1, rng.exp(3 * 3600)));
    const text = new Text(rng);
    const chatId = rng.uuid();
    const reasoning = rng.chance(0.3);
    const messages: Json[] = [];
    for (let turn = Math.max(1, Math.round(rng.exp(4))); turn > 0; turn--) {
      const asked = message(chatId, 'user', clock.advance(rng.exp(90) + 5), text.prompt(), rng);
      if (rng.chance(0.05))
        asked.files = [{ type: rng.chance(0.5) ? 'image' : 'document', name: `${text.word()}.pdf` }];
      messages.push(asked);
      const started = clock.us;
      const body = text.markdown(rng.skewed(40, 6000, 1.6));
      const answer = message(chatId, 'assistant', clock.advance(rng.exp(8) + 1), body, rng);
      const chunks: Json[] = [];
      if (reasoning)
        chunks.push({
          text: text.paragraph(),
          type: 'text',
          _context: { type: 'reasoning', startTime: millis(started), endTime: millis(clock.us), contextId: rng.hex8() },
        });
      if (rng.chance(0.15))
        chunks.push({
          id: rng.hex8(),
          name: 'web_search',
          type: 'tool_call',
          isDone: true,
          success: true,
          toolType: 'web_search',
          publicArguments: JSON.stringify({ query: text.words(rng.int(2, 8)) }),
        });
      chunks.push({ text: body, type: 'text' });
      if (rng.chance(0.15)) chunks.push({ referenceIds: [1, 2, 3].slice(0, rng.int(1, 3)), type: 'reference' });
      answer.contentChunks = chunks;
      messages.push(answer);
    }
    // Exports list a conversation's messages out of order now and then.
    if (rng.chance(0.3)) {
      for (let i = messages.length - 1; i > 0; i--) {
        const j = rng.int(0, i);
        [messages[i], messages[j]] = [messages[j]!, messages[i]!];
      }
    }
    yield { records: messages, messages: messages.length };
  }
}

export const layout: Layout = {
  bare: 'json',
  framing: () => jsonArray(),
  zip: {
    member: (index) => `chat-${String(index).padStart(3, '0')}.json`,
    split: true,
    extras: () => [],
  },
};

export const shape: Shape = { provider: 'mistral', name: 'Le Chat', layout, conversations };
