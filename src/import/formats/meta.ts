import { type HTMLElement, type Node, NodeType, parse } from 'node-html-parser';
import { invalidExport } from '../import-errors.ts';
import {
  asArray,
  asString,
  isObject,
  titleFromQuestion,
  type Json,
  type Message,
  type RecordFormat,
} from './format.ts';
import { checkHtmlNesting, MAX_NESTING_DEPTH, TOO_DEEP } from './nesting.ts';

/** The name Meta gives each conversation: `Conversation with Meta AI_<MM-DD-YYYY>_<epoch seconds>.txt`. */
const LABEL = /^Conversation with Meta AI_\d{2}-\d{2}-\d{4}_(\d+)\.txt$/;
const HEADING = 'Conversation with Meta AI';
/** A turn's first line: the person's (`You:`) or the model's (`Meta AI:`). */
const TURN = /^(You|Meta AI):[ \t]?/;

/**
 * Meta AI (`meta`): Accounts Center's "Download your information", as HTML
 * (`your_ai_conversations.html`: a table cell per conversation, its `.txt`
 * label before it) or JSON (`label_values` … `dict` entries whose `label` is
 * such a name and whose `value` is the same text). Both become records
 * `{label, value}`, one per conversation. No real file has been seen: a shape
 * other than these is refused with what was found, never read in part.
 */
export const metaExport: RecordFormat = {
  kind: 'record',
  provider: 'meta',
  readerVersion: 1,
  zipMembers: /(^|\/)your_ai_conversations\.(html|json)$/,
  misexported: {
    zipMember: /(^|\/)meta_ai_(profile|app)\//,
    reason:
      'this Meta download holds no your_ai_conversations file (Meta AI’s conversations): download your information again, choosing Meta AI, as HTML or JSON',
  },
  recognizes: (raw) => typeof raw.label === 'string' && LABEL.test(raw.label) && typeof raw.value === 'string',
  unfold(raw) {
    if (!Array.isArray(raw.label_values)) return undefined;
    const found: Json[] = [];
    const labels: string[] = [];
    const walk = (entries: unknown[], depth: number) => {
      // Walked by recursion: a tree nested deeper than any export is refused before the stack ends.
      if (depth > MAX_NESTING_DEPTH) throw invalidExport(TOO_DEEP);
      for (const entry of entries.filter(isObject)) {
        const label = asString(entry.label);
        if (label !== undefined && LABEL.test(label) && typeof entry.value === 'string') found.push(entry);
        else if (label !== undefined && labels.length < 3) labels.push(label);
        walk(asArray(entry.dict), depth + 1);
      }
    };
    walk(raw.label_values, 0);
    if (found.length === 0)
      throw invalidExport(
        `a Meta download with no Meta AI conversation in it (entries labelled ${labels.map((label) => `“${label}”`).join(', ') || 'nothing'})`,
      );
    return found;
  },
  htmlRecords: conversationCells,
  normalize(raw) {
    const label = raw.label as string;
    const seconds = Number(LABEL.exec(label)![1]);
    const time = new Date(seconds * 1000);
    if (!Number.isFinite(time.getTime()))
      throw invalidExport(`a Meta AI conversation whose name holds no time: “${label}”`);
    const timestamp = time.toISOString();
    const messages = turns(raw.value as string, label).map(
      ({ role, content }): Message => ({ role, content, timestamp }),
    );
    if (messages.length === 0) return null;
    const title = titleFromQuestion(messages.find((message) => message.role === 'user')?.content);
    return { externalId: `meta-${seconds}`, title, updateTime: timestamp, payload: { title: title ?? '', messages } };
  },
};

/**
 * A conversation's text as turns: after its heading, each line beginning `You:`
 * or `Meta AI:` starts one, which runs to the next. Anything else before the
 * first is a shape not seen: refused.
 */
function turns(text: string, label: string): Array<{ role: 'user' | 'assistant'; content: string }> {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const read: Array<{ role: 'user' | 'assistant'; lines: string[] }> = [];
  let start = lines.findIndex((line) => line.trim() !== '');
  if (start !== -1 && lines[start]!.trim() === HEADING) start++;
  for (const line of lines.slice(Math.max(start, 0))) {
    const turn = TURN.exec(line);
    if (turn) read.push({ role: turn[1] === 'You' ? 'user' : 'assistant', lines: [line.slice(turn[0].length)] });
    else if (read.length > 0) read.at(-1)!.lines.push(line);
    else if (line.trim() !== '')
      throw invalidExport(`a Meta AI conversation (“${label}”) holds text before its first “You:” or “Meta AI:” line`);
  }
  return read
    .map(({ role, lines }) => ({ role, content: lines.join('\n').trim() }))
    .filter(({ content }) => content !== '');
}

/** Elements after which the text goes on on a new line. */
const BLOCKS = new Set(['br', 'div', 'p', 'li', 'tr', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre']);

/**
 * The conversations of `your_ai_conversations.html`: each table cell whose
 * text begins `Conversation with Meta AI`, with the label before it in the page.
 * A page holding none is not Meta's (an empty list: see htmlRecords).
 */
function conversationCells(html: string): Array<Record<string, string>> {
  checkHtmlNesting(html);
  const cells: Array<Record<string, string>> = [];
  let label: string | undefined;
  const visit = (node: Node) => {
    if (node.nodeType === NodeType.TEXT_NODE) {
      const text = node.text.trim();
      if (LABEL.test(text)) label = text;
      return;
    }
    if (node.nodeType !== NodeType.ELEMENT_NODE) return;
    const element = node as HTMLElement;
    if (element.rawTagName?.toLowerCase() === 'td') {
      const text = textOf(element);
      if (LABEL.test(text)) label = text;
      else if (text.startsWith(HEADING)) {
        if (label === undefined)
          throw invalidExport('a “Conversation with Meta AI” cell with no conversation name before it');
        cells.push({ label, value: text });
        label = undefined;
        return;
      }
    }
    for (const child of element.childNodes) visit(child);
  };
  visit(parse(html, { comment: false }));
  return cells;
}

/** An element's text as a person reads it: its line breaks and blocks as new lines, entities decoded. */
function textOf(element: HTMLElement): string {
  const parts: string[] = [];
  const visit = (node: Node) => {
    if (node.nodeType === NodeType.TEXT_NODE) parts.push(node.text);
    else if (node.nodeType === NodeType.ELEMENT_NODE) {
      for (const child of node.childNodes) visit(child);
      if (BLOCKS.has((node as HTMLElement).rawTagName?.toLowerCase() ?? '')) parts.push('\n');
    }
  };
  for (const child of element.childNodes) visit(child);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .trim();
}
