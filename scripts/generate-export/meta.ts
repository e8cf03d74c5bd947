/**
 * Meta AI (`meta`): the JSON of Accounts Center's "Download your information",
 * `meta_ai_profile/your_ai_conversations.json`: `{"label_values": [{label,
 * dict: [{label, dict: [{label: "Conversation with Meta AI_<MM-DD-YYYY>_<epoch
 * seconds>.txt", value}]}]}]}`, each value the conversation as text: a heading,
 * then `You:` and `Meta AI:` lines. Reported only (no real file seen). Parley
 * reads the object whole, so its size is bounded by MAX_CONVERSATION_BYTES.
 */
import { Rng } from './rng.ts';
import type { Conversation, Layout, Shape } from './shape.ts';
import { Text } from './text.ts';
import { Clock } from './time.ts';
import { jsonObject } from './writer.ts';

/** 2025-06-01T00:00:00Z */
const START_SECONDS = 1748736000;

const twoDigits = (n: number) => String(n).padStart(2, '0');

function* conversations(seed: number): Generator<Conversation, never, undefined> {
  const rng = new Rng(seed);
  const clock = new Clock(START_SECONDS + rng.int(0, 86_400));
  for (;;) {
    const seconds = Math.floor(clock.advance(Math.max(1, rng.exp(3 * 3600))) / 1e6);
    const text = new Text(rng);
    const lines = ['Conversation with Meta AI', '', ''];
    const turns = Math.max(1, Math.round(rng.exp(3)));
    for (let turn = turns; turn > 0; turn--)
      lines.push(`You: ${text.prompt()}`, `Meta AI: ${text.markdown(rng.skewed(40, 3000, 1.6))}`);
    const date = new Date(seconds * 1000);
    const label = `Conversation with Meta AI_${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())}-${date.getUTCFullYear()}_${seconds}.txt`;
    const entry = { label: 'Conversation file', dict: [{ label, value: `${lines.join('\n')}\n` }] };
    yield { records: [{ label: 'Conversation file', dict: [entry] }], messages: turns * 2 };
  }
}

export const layout: Layout = {
  bare: 'json',
  framing: () => jsonObject('label_values', {}),
  zip: {
    member: () => 'meta_ai_profile/your_ai_conversations.json',
    split: false,
    extras: () => [
      {
        path: 'meta_ai_profile/your_meta_ai_profile.html',
        content: '<!DOCTYPE html><html><head><meta charset="utf-8" /><title>Your Meta AI profile</title></head></html>',
      },
    ],
  },
};

export const shape: Shape = { provider: 'meta', name: 'Meta AI', layout, conversations };
