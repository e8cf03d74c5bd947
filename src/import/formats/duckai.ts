import { hash } from 'fast-sha256';
import { invalidExport } from '../import-errors.ts';
import { isoFrom, PLAIN_TEXT, titleFromQuestion, type Message, type RecordFormat } from './format.ts';

/** The first line of every Duck.ai download, naming the vendor and the model. */
const HEADER = /^This conversation was generated with Duck\.ai \(https:\/\/duck\.ai\) using (.+?)'s (.+?) Model\./;
/** `User prompt 2 of 3 - 2026-06-22, 12:00:32 a.m.:` */
const PROMPT_HEADING = /^User prompt (\d+) of (\d+) - (\d{4}-\d{2}-\d{2}), (\d{1,2}):(\d{2}):(\d{2}) ([ap])\.m\.:$/;
/** What separates one prompt and its answer from the next. */
const SEPARATOR = '--------------------';

interface Turn {
  /** As written, without a zone: `2026-06-21T23:58:58`. */
  time: string;
  prompt: string;
  answer: string | undefined;
}

const sha256Hex = (text: string) =>
  Array.from(hash(new TextEncoder().encode(text)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * Duck.ai (`duckduckgo`): one `duck.ai_<date>_<time>.txt` per conversation, a
 * header naming the model, then each prompt under its numbered heading and the
 * answer under a `<Model>:` line. Times are local, with no zone: read in the
 * person's zone where the upload names it.
 */
export const duckaiExport: RecordFormat = {
  kind: 'record',
  provider: 'duckduckgo',
  readerVersion: 1,
  zonelessTimes: true,
  zipMembers: /(^|\/)duck\.ai_[^/]*\.txt$/,
  plainText: HEADER,
  recognizes: (raw) =>
    typeof raw[PLAIN_TEXT] === 'string' &&
    HEADER.test(raw[PLAIN_TEXT]) &&
    /^User prompt 1 of \d+ - /m.test(raw[PLAIN_TEXT]),
  normalize(raw, _fileNames, options) {
    const text = (raw[PLAIN_TEXT] as string).replace(/\r\n?/g, '\n');
    const model = HEADER.exec(text)![2]!;
    const turns = readTurns(text.split('\n'), model);
    const first = turns[0];
    if (!first) return null;
    const messages = turns.flatMap(({ time, prompt, answer }): Message[] => {
      const timestamp = isoFrom(time, options?.timeZone);
      const asked: Message = { role: 'user', content: prompt, timestamp };
      return answer === undefined ? [asked] : [asked, { role: 'assistant', content: answer, timestamp, model }];
    });
    const title = titleFromQuestion(first.prompt);
    return {
      // As written, whatever the zone: the same file read in another zone is the same conversation.
      externalId: `duckai-${first.time}-${sha256Hex(first.prompt).slice(0, 8)}`,
      title,
      updateTime: isoFrom(turns.at(-1)!.time, options?.timeZone),
      payload: { title: title ?? '', messages },
    };
  },
};

/**
 * The turns, each from its heading to the next: a heading counts only as the
 * next number of the same total, so a prompt or answer quoting one stays text.
 * A file with fewer prompts than its headings announce was cut short.
 */
function readTurns(lines: string[], model: string): Turn[] {
  const starts: Array<{ line: number; time: string }> = [];
  let total = 0;
  lines.forEach((line, i) => {
    const heading = PROMPT_HEADING.exec(line);
    if (!heading || Number(heading[1]) !== starts.length + 1) return;
    if (starts.length > 0 && Number(heading[2]) !== total) return;
    total = Number(heading[2]);
    const [, , , date, hour, minute, second, half] = heading;
    const hours = (Number(hour) % 12) + (half === 'p' ? 12 : 0);
    starts.push({ line: i, time: `${date}T${String(hours).padStart(2, '0')}:${minute}:${second}` });
  });
  if (starts.length < total)
    throw invalidExport(`the Duck.ai conversation ends at prompt ${starts.length} of ${total} (truncated?)`);
  return starts.map(({ line, time }, i) => {
    const section = lines.slice(line + 1, starts[i + 1]?.line ?? lines.length);
    // The separator before the next heading is no text of this turn.
    const separator = section.findLastIndex((text) => text.trim() !== '');
    if (i + 1 < starts.length && section[separator] === SEPARATOR) section.length = separator;
    // The answer begins under the first `<Model>:` line after an empty one.
    const heading = section.findIndex((text, j) => text === `${model}:` && j > 0 && section[j - 1] === '');
    if (heading === -1) return { time, prompt: section.join('\n').trim(), answer: undefined };
    const answer = section
      .slice(heading + 1)
      .join('\n')
      .trim();
    return { time, prompt: section.slice(0, heading).join('\n').trim(), answer: answer === '' ? undefined : answer };
  });
}
