import { NodeHtmlMarkdown } from 'node-html-markdown';
import { asArray, asString, isObject, msFrom, type GroupedFormat, type Json, type Message } from './format.ts';
import { checkHtmlNesting } from './nesting.ts';

/** `Prompted ` (some Takeouts put a no-break space after it) opens an exchange's title; the prompt follows. */
const PROMPTED = /^Prompted[ \u00a0]/;
const TITLE_LENGTH = 80;
/** …/app/<id> or …/app/c/<id>: the conversation an entry belongs to. */
const CONVERSATION_URL = /\/app\/(?:c\/)?([\w-]+)\/?(?:[?#]|$)/;

/** A stateless converter: answers are HTML, stored as Markdown like every other provider's text. */
const htmlToMarkdown = new NodeHtmlMarkdown();

/** The named items (`details`, `subtitles`) that carry an exchange in Takeout's other shape. */
const PROMPT_ITEMS = new Set(['Request', 'Prompt', 'User']);
const ANSWER_ITEM = 'Response';
/** Entries that record what the person did about an answer: no messages of their own. */
const BOOKKEEPING = /^(Gave feedback|Selected preferred draft)\b/;

/**
 * Gemini (`google`): Takeout's My Activity for Gemini Apps, an array of entries,
 * newest first. An entry titled `Prompted …`, or one carrying the prompt and
 * answer as named `Request`/`Response` items, is one exchange; exchanges are
 * grouped into conversations by the conversation named in `titleUrl`, or else by
 * time (less than 30 minutes apart). Feedback, draft choices and entries with
 * nothing but a title are no messages; an entry with text that is no exchange
 * cannot be placed, and is counted as skipped.
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
    if (!isExchange(raw))
      return BOOKKEEPING.test(asString(raw.title) ?? '') || !holdsText(raw) ? 'ignored' : 'unreadable';
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

/** The value of the first of an entry's named items (`{name, value}` in `details` or `subtitles`) whose name `names` accepts. */
function namedValue(entry: Json, names: (name: string) => boolean): string | undefined {
  for (const item of [...asArray(entry.details), ...asArray(entry.subtitles)]) {
    if (isObject(item) && typeof item.value === 'string' && names(asString(item.name) ?? '')) return item.value;
  }
  return undefined;
}

const namedPrompt = (entry: Json) => namedValue(entry, (name) => PROMPT_ITEMS.has(name));

const isExchange = (entry: Json) => PROMPTED.test(asString(entry.title) ?? '') || namedPrompt(entry) !== undefined;

/** Whether an entry carries text beyond its title: an answer, or a named item's value. */
const holdsText = (entry: Json): boolean =>
  asArray(entry.safeHtmlItem).some((item) => isObject(item) && asString(item.html)?.trim()) ||
  Boolean(namedValue(entry, () => true)?.trim());

const promptOf = (exchange: Json) => {
  const title = asString(exchange.title) ?? '';
  return (PROMPTED.test(title) ? title.replace(PROMPTED, '') : namedPrompt(exchange)!).trim();
};

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
  if (html) checkHtmlNesting(html);
  const content = html
    ? htmlToMarkdown.translate(html).trim()
    : (namedValue(exchange, (name) => name === ANSWER_ITEM) ?? '').trim();
  if (content !== '') messages.push({ role: 'assistant', content, timestamp });
  return messages;
}
