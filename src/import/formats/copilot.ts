import { sha256Hex } from '../../crypto.ts';
import { asString, msFrom, titleFrom, type GroupedFormat, type Json, type Message } from './format.ts';

export const COPILOT_COLUMNS = ['Conversation', 'Time', 'Author', 'Message'] as const;

const iso = (time: unknown) => new Date(msFrom(time)!).toISOString();

/** The person's authors; every other author (`AI`, `Copilot`, `bot`, …) is the model. */
const USER_AUTHORS = new Set(['human', 'user']);

const isUser = (row: Json) => USER_AUTHORS.has(asString(row.Author)!.toLowerCase());

/**
 * Microsoft Copilot (`microsoft`): the privacy dashboard's CSV, one row per
 * message, newest first. All rows of one conversation name are one thread in
 * Copilot, however far apart; rows without a name are one conversation while
 * less than 30 minutes apart.
 */
export const copilotExport: GroupedFormat = {
  kind: 'grouped',
  provider: 'microsoft',
  readerVersion: 1,
  zipMembers: /(^|\/)copilot-activity-history\.csv$/,
  // `copilot-<first time>-<name hash>`: threads cut at every 30-minute gap, the answers' and prompts' roles mixed up.
  formerIds: /^copilot-\d{4}-\d{2}-\d{2}T[\d:.]+Z-[0-9a-f]{8}$/,
  recognizes: (raw) => COPILOT_COLUMNS.every((column) => typeof raw[column] === 'string'),
  placement(raw) {
    const time = msFrom(raw.Time);
    return time === null ? 'unreadable' : { key: raw.Conversation as string, time };
  },
  splitsOnGap: (name) => name === '',
  async normalize(records) {
    // A prompt and its answer carry the same second, the answer first in the file: the prompt goes first.
    const rows = records
      .map((row) => ({ row, time: msFrom(row.Time)! }))
      .sort((a, b) => a.time - b.time || Number(isUser(b.row)) - Number(isUser(a.row)))
      .map(({ row }) => row);
    const first = rows[0]!;
    const name = asString(first.Conversation)!;
    const title = titleFrom(name);
    // The name alone may repeat across threads; its first message's time tells them apart.
    const nameHash = (await sha256Hex(name)).slice(0, 8);
    const messages = rows.flatMap((row): Message[] => {
      // The file's lines end in CRLF, and so do the lines inside a quoted message.
      const content = asString(row.Message)!.replace(/\r\n?/g, '\n').trim();
      const timestamp = iso(row.Time);
      // The person's empty row is an upload (a file or an image): the export keeps nothing else of it.
      if (isUser(row)) return [{ role: 'user', content: content === '' ? '[file]' : content, timestamp }];
      return content === '' ? [] : [{ role: 'assistant', content, timestamp }];
    });
    return {
      externalId: `copilot-${nameHash}-${iso(first.Time)}`,
      title,
      updateTime: iso(rows.at(-1)!.Time),
      payload: { title: title ?? '', messages },
    };
  },
};
