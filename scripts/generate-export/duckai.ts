/**
 * Duck.ai (`duckduckgo`): one `duck.ai_<YYYY-MM-DD>_<HH-MM-SS>.txt` per
 * conversation (named by when it was downloaded), UTF-8 with a BOM: a header
 * line naming the vendor and the model, `====================`, then each
 * prompt under `User prompt <n> of <N> - YYYY-MM-DD, h:mm:ss a.m.:` and its
 * answer under a `<Model>:` line, turns separated by `--------------------`.
 * Times are local, without a zone, `a.m.`/`p.m.` with dots. Now and then a
 * prompt quotes an earlier answer with its `<Model>:` line. The bare file holds
 * one conversation; a large export is the zip of one file per conversation.
 */
import { Rng } from './rng.ts';
import type { Conversation, Layout, Shape } from './shape.ts';
import { Text } from './text.ts';
import { Clock, millis } from './time.ts';

/** 2026-01-05T00:00:00 (local, as the file writes it) */
const START_SECONDS = 1767571200;
const MODELS: ReadonlyArray<readonly [vendor: string, model: string]> = [
  ['OpenAI', 'GPT-4o mini'],
  ['OpenAI', 'GPT-5 mini'],
  ['Anthropic', 'Claude Haiku 4.5'],
  ['Meta', 'Llama 4 Scout'],
  ['Mistral AI', 'Mistral Small 3'],
];

/** `2026-06-21, 11:58:58 p.m.` */
function promptTime(us: number): string {
  const iso = new Date(millis(us)).toISOString();
  const hours = Number(iso.slice(11, 13));
  return `${iso.slice(0, 10)}, ${hours % 12 || 12}:${iso.slice(14, 19)} ${hours < 12 ? 'a' : 'p'}.m.`;
}

/** `duck.ai_2026-06-22_00-04-30.txt` */
const fileName = (us: number) =>
  `duck.ai_${new Date(millis(us)).toISOString().slice(0, 19).replace('T', '_').replaceAll(':', '-')}.txt`;

function* conversations(seed: number): Generator<Conversation, never, undefined> {
  const rng = new Rng(seed);
  const clock = new Clock(START_SECONDS + rng.int(0, 86_400));
  for (;;) {
    clock.advance(Math.max(1, rng.exp(5 * 3600)));
    const text = new Text(rng);
    const [vendor, model] = rng.pick(MODELS);
    const turns = Math.max(1, Math.round(rng.exp(3)));
    const sections: string[] = [];
    for (let turn = 1; turn <= turns; turn++) {
      const at = clock.advance(rng.exp(90) + 5);
      const prompt = rng.chance(0.05)
        ? `${text.sentence()}\n${model}:\n${text.sentence()}\n${text.prompt()}`
        : text.prompt();
      const answer = text.markdown(rng.skewed(40, 5000, 1.6));
      sections.push(`User prompt ${turn} of ${turns} - ${promptTime(at)}:\n${prompt}\n\n${model}:\n${answer}\n`);
    }
    const header =
      `\uFEFFThis conversation was generated with Duck.ai (https://duck.ai) using ${vendor}'s ${model} Model. ` +
      'AI chats may display inaccurate or offensive information (see https://duckduckgo.com/duckai/privacy-terms for more info).';
    const file = fileName(clock.advance(rng.exp(60) + 1));
    yield {
      records: [`${header}\n\n====================\n\n${sections.join('\n--------------------\n\n')}`],
      messages: turns * 2,
      file,
    };
  }
}

export const layout: Layout = {
  bare: 'txt',
  framing: () => ({ head: '', separator: '', tail: '', record: (value) => value as string }),
  zip: {
    member: (_index, _account, conversation) => conversation.file!,
    split: 'conversation',
    extras: () => [],
  },
};

export const shape: Shape = { provider: 'duckduckgo', name: 'Duck.ai', layout, conversations };
