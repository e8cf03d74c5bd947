import { invalidExport } from '../import-errors.ts';

/**
 * How deep an export's values may nest where Parley turns them into text: a
 * JSON value (a tool call's input, a record staged to be grouped) or an HTML
 * answer (Gemini's). Real exports nest a few dozen levels at most. Beyond this,
 * the file is refused as invalid (400): JSON.stringify and the HTML converter
 * recurse, and some thousands of levels overflow the stack, a 500; and the
 * converter's time grows with the depth faster than with the length.
 */
export const MAX_NESTING_DEPTH = 256;

export const TOO_DEEP = `a value is nested more than ${MAX_NESTING_DEPTH} levels deep`;

/**
 * A JSON value of the export (as JSON.parse made it) as text; refused (`Invalid
 * export file`) when it nests deeper than MAX_NESTING_DEPTH. `indented`: two spaces a level, as a person
 * reads it — unless that would more than triple the text (deep nesting indents
 * every line further): then compact, so that the text stays within a small
 * multiple of the export's bytes.
 */
export function jsonText(value: unknown, indented = false): string {
  const { depth, indentation } = shapeOf(value);
  if (depth > MAX_NESTING_DEPTH) throw invalidExport(TOO_DEEP);
  const compact = JSON.stringify(value);
  return indented && indentation <= 2 * compact.length ? JSON.stringify(value, null, 2) : compact;
}

/**
 * How many levels of objects and arrays `value` nests (counted up to one past
 * MAX_NESTING_DEPTH, where the walk stops: its recursion stays that shallow),
 * and the spaces and line breaks indenting its members two a level adds.
 */
function shapeOf(value: unknown): { depth: number; indentation: number } {
  let indentation = 0;
  const walk = (node: unknown, level: number): number => {
    if (typeof node !== 'object' || node === null) return level;
    if (level === MAX_NESTING_DEPTH) return level + 1;
    let deepest = level + 1;
    const members = node as Record<string, unknown>;
    for (const key in members) {
      indentation += 2 * (level + 1) + 1;
      deepest = Math.max(deepest, walk(members[key], level + 1));
      if (deepest > MAX_NESTING_DEPTH) break;
    }
    return deepest;
  };
  return { depth: walk(value, 0), indentation };
}

/** Elements that never hold others: no closing tag follows them. */
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const TAG = /<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g;

/**
 * Refuses (`Invalid export file`) HTML whose elements nest deeper than
 * MAX_NESTING_DEPTH, counted as tags opened and not yet closed: an element
 * left open holds everything after it, as a browser reads it.
 */
export function checkHtmlNesting(html: string): void {
  let depth = 0;
  for (const [, closing, name, selfClosing] of html.matchAll(TAG)) {
    if (selfClosing || VOID_ELEMENTS.has(name!.toLowerCase())) continue;
    depth = closing ? Math.max(0, depth - 1) : depth + 1;
    if (depth > MAX_NESTING_DEPTH) throw invalidExport(TOO_DEEP);
  }
}
