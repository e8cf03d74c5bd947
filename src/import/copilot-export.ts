import { sha256Hex } from '../crypto.ts';
import { asString, msFrom, titleFrom, type GroupedFormat, type Message } from './conversation.ts';

export const COPILOT_COLUMNS = ['Conversation', 'Time', 'Author', 'Message'] as const;

const iso = (time: unknown) => new Date(msFrom(time)!).toISOString();

/**
 * Microsoft Copilot (`microsoft`): the privacy dashboard's CSV, one row per
 * message. Rows of one conversation name, less than 30 minutes apart, are one
 * conversation; the same name days later is another.
 */
export const copilotExport: GroupedFormat = {
  kind: 'grouped',
  provider: 'microsoft',
  readerVersion: 1,
  zipMembers: /(^|\/)copilot-activity-history\.csv$/,
  recognizes: (raw) => COPILOT_COLUMNS.every((column) => typeof raw[column] === 'string'),
  placement(raw) {
    const time = msFrom(raw.Time);
    return time === null ? 'unreadable' : { key: raw.Conversation as string, time };
  },
  splitsOnGap: () => true,
  async normalize(rows) {
    const first = rows[0]!;
    const name = asString(first.Conversation)!;
    const title = titleFrom(name);
    // The name alone repeats across conversations; its first message's time tells them apart.
    const nameHash = (await sha256Hex(name)).slice(0, 8);
    const messages = rows.flatMap((row): Message[] => {
      // The file's lines end in CRLF, and so do the lines inside a quoted message.
      const content = asString(row.Message)!.replace(/\r\n?/g, '\n').trim();
      const role = asString(row.Author)!.toLowerCase() === 'user' ? 'user' : 'assistant';
      return content === '' ? [] : [{ role, content, timestamp: iso(row.Time) }];
    });
    return {
      externalId: `copilot-${iso(first.Time)}-${nameHash}`,
      title,
      updateTime: iso(rows.at(-1)!.Time),
      payload: { title: title ?? '', messages },
    };
  },
};
