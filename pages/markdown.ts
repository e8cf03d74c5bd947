import MarkdownIt, { type RendererRule } from 'markdown-it';

/**
 * Links in a message lead to pages its author, or a model, chose: they get neither
 * this page's address (`noreferrer`), nor a handle on it (`noopener`), nor any
 * standing with search engines (`nofollow`).
 */
const LINK_REL = 'noopener noreferrer nofollow';

/**
 * What rendering a text costs markdown-it, in characters of plain prose: each
 * character, and MARKUP_WEIGHT more for each that opens a search for its match
 * (`[`, `!`, `*`, `_`, a backtick). Its time follows this closely, prose or
 * hostile Markdown (`![![![…` costs about ten times plain prose a character).
 */
const MARKUP_WEIGHT = 8;
const MARKUP = new Set([0x5b, 0x21, 0x2a, 0x5f, 0x60]);

export function markdownCost(text: string): number {
  let markup = 0;
  for (let i = 0; i < text.length; i++) if (MARKUP.has(text.charCodeAt(i))) markup++;
  return text.length + MARKUP_WEIGHT * markup;
}

/**
 * The costliest text rendered as Markdown (markdownCost); a costlier one is
 * shown as plain text. A text cannot be interrupted once begun: this bounds how
 * long one holds the server (tens of milliseconds).
 */
export const MARKDOWN_TEXT_COST = 64 * 1024;

/**
 * The most Markdown one page renders (hundreds of ordinary answers): a text
 * past what is left of it is shown as plain text, so a page of many texts just
 * under MARKDOWN_TEXT_COST costs no more than this.
 */
export const MARKDOWN_PAGE_COST = 512 * 1024;

/**
 * A renderer of GitHub-flavoured Markdown (emphasis, lists, tables, strikethrough,
 * fenced code with its `language-…` class, links) to HTML that is safe to put in a
 * page as is: markdown-it escapes all text itself, `html: false` shows raw HTML as
 * the text it is, and its link validation refuses `javascript:`, `vbscript:`,
 * `file:` and non-image `data:` URLs, leaving such a link as plain text.
 *
 * A new renderer for each page, not one module constant: markdown-it compiles its
 * rule chains on first use and linkify moves cursors on shared regular expressions,
 * so one instance would be state shared across requests. Building one takes well
 * under a millisecond, next to nothing beside a page of messages.
 */
export function markdownRenderer(codeLabel: string): (markdown: string) => string {
  // `breaks`: people type their messages with Enter for a new line and expect to
  // see it, as GitHub's comments show it. `linkify` turns only URLs with a scheme
  // (and e-mail addresses) into links, so `main.py` in a sentence stays text.
  const md = new MarkdownIt({ html: false, breaks: true, linkify: true });
  const rules = md.renderer.rules;

  rules.link_open = (tokens, idx, options, _env, self) => {
    tokens[idx]!.attrSet('rel', LINK_REL);
    return self.renderToken(tokens, idx, options);
  };

  // An image becomes a link to it, named by its alt text: loading it would tell
  // its host who read the conversation and when (and the pages' CSP allows only
  // their own images). An inline `data:` image has nowhere to link to: its alt
  // text stands alone.
  rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const src = String(token.attrGet('src') ?? '');
    const label = md.utils.escapeHtml(self.renderInlineAsText(token.children ?? [], options, env) || src);
    return /^data:/i.test(src) ? label : `<a href="${md.utils.escapeHtml(src)}" rel="${LINK_REL}">${label}</a>`;
  };

  // A column's alignment as a class: markdown-it writes it as a style attribute,
  // which the pages' CSP (`style-src 'self'`) refuses.
  const alignedCell: RendererRule = (tokens, idx, options, _env, self) => {
    const token = tokens[idx]!;
    const align = /^text-align:(\w+)$/.exec(String(token.attrGet('style') ?? ''))?.[1];
    if (align) {
      token.attrs = token.attrs!.filter(([name]) => name !== 'style');
      token.attrSet('class', `align-${align}`);
    }
    return self.renderToken(tokens, idx, options);
  };
  rules.th_open = alignedCell;
  rules.td_open = alignedCell;

  // Code and tables scroll sideways inside the message when wider than it (see the
  // stylesheet): tabindex puts them in the tab order, so a keyboard can reach and
  // scroll them too (WCAG 2.1.1; axe's scrollable-region-focusable).
  const focusable =
    (render: RendererRule): RendererRule =>
    (...args) =>
      render(...args).replace(/^<(pre|table)>/, '<$1 tabindex="0">');
  // A code block is a figure captioned with its language (`codeLabel` when it has
  // none), where the page script adds a copy button.
  const captioned =
    (render: RendererRule): RendererRule =>
    (tokens, idx, options, env, self) => {
      const language = tokens[idx]!.info.trim().split(/\s+/)[0] || codeLabel;
      return `<figure class="code"><figcaption>${md.utils.escapeHtml(language)}</figcaption>${render(tokens, idx, options, env, self)}</figure>\n`;
    };
  rules.fence = captioned(focusable(rules.fence!));
  rules.code_block = captioned(focusable(rules.code_block!));
  rules.table_open = focusable((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));

  // The conversation's title is the page's one h1: a message's `# Heading` sits a
  // level below it, so the page's outline stays the page's. A level is never more
  // than one below the heading before it, as a screen reader's outline needs (axe's
  // heading-order): a message that opens with `###`, as models' answers often do,
  // gets an h2, and its headings below follow from there.
  rules.heading_open = (tokens, idx, options, env, self) => {
    const outline = env as { level: number };
    const level = Math.min(6, Number(tokens[idx]!.tag.slice(1)) + 1, outline.level + 1);
    outline.level = level;
    // heading_open, its inline content, heading_close: the pair gets the same tag.
    tokens[idx]!.tag = tokens[idx + 2]!.tag = `h${level}`;
    return self.renderToken(tokens, idx, options);
  };

  return (markdown) => md.render(markdown, { level: 1 });
}

/** What a page shows of a text: its Markdown rendered (`formatted`), or the text itself, escaped. */
export interface ShownText {
  html: string;
  formatted: boolean;
}

/**
 * The texts of one page, each rendered as Markdown while it fits the budgets
 * (MARKDOWN_TEXT_COST, MARKDOWN_PAGE_COST), else as plain text.
 * `turn` lets other requests run before more than a text's worth of Markdown is
 * rendered since the last turn, so a page of hostile Markdown holds the server
 * for one text's rendering at a time, never for the page's.
 */
export function pageTexts(codeLabel: string, turn: () => Promise<void>): (text: string) => Promise<ShownText> {
  const render = markdownRenderer(codeLabel);
  let left = MARKDOWN_PAGE_COST;
  let sinceTurn = 0;
  return async (text) => {
    // A text far too long to render is not read through to be costed.
    const cost = text.length > MARKDOWN_TEXT_COST ? text.length : markdownCost(text);
    if (cost > MARKDOWN_TEXT_COST || cost > left)
      // The stylesheet keeps its line breaks (`white-space: pre-wrap`).
      return { html: text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;'), formatted: false };
    if (sinceTurn + cost > MARKDOWN_TEXT_COST) {
      await turn();
      sinceTurn = 0;
    }
    left -= cost;
    sinceTurn += cost;
    return { html: render(text), formatted: true };
  };
}
