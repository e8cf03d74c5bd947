import { NodeHtmlMarkdown } from 'node-html-markdown';
import { asArray, asString, isObject, msFrom, type GroupedFormat, type Json, type Message } from './conversation.ts';

const PROMPTED = 'Prompted ';
const TITLE_LENGTH = 80;
/** …/app/<id> or …/app/c/<id>: the conversation an entry belongs to. */
const CONVERSATION_URL = /\/app\/(?:c\/)?([\w-]+)\/?(?:[?#]|$)/;

/** A stateless converter: answers are HTML, stored as Markdown like every other provider's text. */
const htmlToMarkdown = new NodeHtmlMarkdown();

/**
 * Gemini (`google`): Takeout's My Activity for Gemini Apps, an array of entries,
 * newest first. An entry titled `Prompted …` is one exchange; exchanges are
 * grouped into conversations by the conversation named in `titleUrl`, or else by
 * time (less than 30 minutes apart). Other entries (feedback, draft choices) are
 * no messages.
 */
export const geminiExport: GroupedFormat = {
  kind: 'grouped',
  provider: 'google',
  readerVersion: 1,
  zipMembers: /(^|\/)Gemini Apps\/My ?Activity\.json$/,
  misexported: {
    zipMember: /(^|\/)Gemini Apps\/My ?Activity\.html$/,
    reason: 'Gemini activity was exported as HTML; export it again from Takeout choosing JSON',
  },
  recognizes: (raw) => raw.header === 'Gemini Apps' || asArray(raw.products).includes('Gemini Apps'),
  placement(raw) {
    if (!asString(raw.title)?.startsWith(PROMPTED)) return 'ignored';
    const time = msFrom(raw.time);
    if (time === null) return 'unreadable';
    const id = CONVERSATION_URL.exec(asString(raw.titleUrl) ?? '')?.[1];
    return { key: id ?? '', time };
  },
  // An entry without its conversation's link is grouped by time alone.
  splitsOnGap: (key) => key === '',
  async normalize(exchanges) {
    const first = exchanges[0]!;
    const firstTime = new Date(msFrom(first.time)!).toISOString();
    const title = shortTitle(promptOf(first));
    return {
      externalId: CONVERSATION_URL.exec(asString(first.titleUrl) ?? '')?.[1] ?? `gemini-${firstTime}`,
      title,
      updateTime: new Date(msFrom(exchanges.at(-1)!.time)!).toISOString(),
      payload: { title: title ?? '', messages: exchanges.flatMap(toMessages) },
    };
  },
};

const promptOf = (exchange: Json) => asString(exchange.title)!.slice(PROMPTED.length).trim();

/** The first prompt, cut at 80 characters on a word boundary. */
function shortTitle(prompt: string): string | null {
  if (prompt === '') return null;
  if (prompt.length <= TITLE_LENGTH) return prompt;
  const cut = prompt.slice(0, TITLE_LENGTH);
  const boundary = cut.search(/\s\S*$/);
  return `${(boundary > 0 ? cut.slice(0, boundary) : cut).trimEnd()}…`;
}

/** The prompt with its attachments named, and the answer the person kept: the last draft. */
function toMessages(exchange: Json): Message[] {
  const timestamp = new Date(msFrom(exchange.time)!).toISOString();
  const attachments = asArray(exchange.subtitles)
    .filter(isObject)
    .map((subtitle) => asString(subtitle.name) ?? '')
    .filter((name) => name.startsWith('-'))
    .map((name) => `[file: ${name.replace(/^-\s*/, '')}]`);
  if (asString(exchange.imageFile)) attachments.push('[image]');
  const prompt = [promptOf(exchange), ...attachments].filter((line) => line !== '').join('\n');
  const messages: Message[] = prompt === '' ? [] : [{ role: 'user', content: prompt, timestamp }];
  const answer = asArray(exchange.safeHtmlItem).filter(isObject).at(-1);
  const html = answer ? asString(answer.html) : undefined;
  const content = html ? htmlToMarkdown.translate(html).trim() : '';
  if (content !== '') messages.push({ role: 'assistant', content, timestamp });
  return messages;
}
