import * as search from '../db/conversation-search.ts';
import type { Deps } from '../deps.ts';
import type { Message } from '../import/formats/format.ts';
import type { Owner } from './ownership.ts';
import { messagesOf } from './payload.ts';

/** The longest `q` the API takes (`400 Invalid q parameter` beyond); the manage page's box holds as many. */
export const MAX_QUERY_LENGTH = 200;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/**
 * The words of a search, as people type them: runs of letters and digits (with
 * their accents), everything else (quotes, operators, punctuation) separating
 * them. Every word must match. A search never reaches the database as its own
 * query language, so nothing typed can fail it.
 */
export const searchWords = (q: string): string[] => q.normalize('NFC').match(WORD) ?? [];

/** A blank `q` filters nothing; any other is a search, which words-less punctuation (`"?!"`) makes one that matches nothing. */
export const isSearch = (q: string | undefined): q is string => q !== undefined && q.trim() !== '';

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A piece of a snippet: the words that matched are `marked`. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

const SNIPPET_BEFORE = 60;
const SNIPPET_LENGTH = 200;

/**
 * A short extract of the first message that has one of the words (folded as
 * the index folds them, the last one also as a prefix), the words marked; or
 * the start of the first message when only the title matched.
 */
export function snippetOf(messages: ReadonlyArray<Pick<Message, 'content'>>, words: readonly string[]): SnippetPart[] {
  const wanted = words.map(fold);
  const isMatch = (token: string) => {
    const folded = fold(token);
    return wanted.some((word, i) => folded === word || (i === wanted.length - 1 && folded.startsWith(word)));
  };
  const texts = messages.map((message) => message.content.replace(/\s+/g, ' ').trim()).filter(Boolean);
  let text = texts[0] ?? '';
  let first = -1;
  for (const candidate of texts) {
    const hit = [...candidate.matchAll(WORD)].find((token) => isMatch(token[0]));
    if (hit) {
      text = candidate;
      first = hit.index;
      break;
    }
  }
  let start = Math.max(0, first - SNIPPET_BEFORE);
  // Start and end at a space, not inside a word.
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  const extract = text.slice(start, end);
  const parts: SnippetPart[] = [];
  const add = (piece: string, marked: boolean) => piece && parts.push({ text: piece, marked });
  let at = 0;
  for (const token of extract.matchAll(WORD)) {
    if (!isMatch(token[0])) continue;
    add(extract.slice(at, token.index), false);
    add(token[0], true);
    at = token.index + token[0].length;
  }
  add(extract.slice(at), false);
  if (start > 0) parts.unshift({ text: '… ', marked: false });
  if (end < text.length) parts.push({ text: ' …', marked: false });
  return parts;
}

/** One page of the person's own conversations that match `q`, across their connections, best first, each with a snippet. */
export async function searchOwn(
  deps: Pick<Deps, 'db'>,
  owner: Owner,
  q: string,
  page: { limit: number; offset: number },
) {
  const words = searchWords(q);
  if (words.length === 0) return { results: [], total: 0 };
  const { rows, total } = await search.searchUser(deps.db, owner.appId, owner.userRef, words, page);
  const results = rows.map(({ payload, ...row }) => ({ ...row, snippet: snippetOf(messagesOf(payload), words) }));
  return { results, total };
}
