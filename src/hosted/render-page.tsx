import type { Context } from 'hono';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { ErrorPage } from '../../pages/error-page.tsx';
import { messagesFor } from '../../pages/i18n/locales.ts';
import { MessagesContext } from '../../pages/i18n/messages-context.ts';
import type { Messages } from '../../pages/i18n/en.ts';
import { PageFrameContext } from '../../pages/page-frame.ts';
import type { AppEnv } from '../app-env.ts';
import type { ErrorCode, ParleyError } from '../errors.ts';
import { errorStatus } from '../http/error-response.ts';
import { textStream } from '../bytes.ts';

/** The catalogue of the language this request's pages are in. */
export const messages = (c: Context<AppEnv>): Messages => messagesFor(c.get('page').locale);

/** A page, in the language and frame (brand, way back) that the page's middleware set. */
export function renderPage(
  c: Context<AppEnv>,
  page: VNode,
  status: 200 | 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 500 | 503 = 200,
) {
  const { brand, returnUrl, returnStatus } = c.get('page');
  const framed = (
    <PageFrameContext.Provider value={{ brand, returnUrl, returnStatus }}>{page}</PageFrameContext.Provider>
  );
  const html = `<!doctype html>${renderToString(<MessagesContext.Provider value={messages(c)}>{framed}</MessagesContext.Provider>)}`;
  if (html.length <= PAGE_PIECE_CHARACTERS) return c.html(html, status);
  return c.body(textStream(html, PAGE_PIECE_CHARACTERS), status, { 'Content-Type': 'text/html; charset=UTF-8' });
}

/** A page longer than this (a conversation of long texts) goes out this much at a time (textStream). */
const PAGE_PIECE_CHARACTERS = 256 * 1024;

/**
 * The error as a page: its message and what to do, in the person's language. A
 * technical reason after the message (a parser's, in English) stays in the API's
 * JSON and the log. A session that was never opened in this browser is not said
 * to have expired.
 */
export function pageErrorResponse(c: Context<AppEnv>, error: ParleyError) {
  const t = messages(c);
  const { appName, sessionSent, connectSessionHours } = c.get('page');
  const expired = error.code === 'sessionExpired';
  const neverOpened = expired && !sessionSent;
  const advice = neverOpened
    ? t.noSessionAdvice
    : expired && connectSessionHours
      ? t.connectSessionEnded({ hours: connectSessionHours })
      : ((t.advice as Partial<Record<ErrorCode, string>>)[error.code] ?? t.askAgain);
  const message = neverOpened ? t.noSessionTitle : t.errors[error.code];
  const status = errorStatus(error);
  return renderPage(
    c,
    <ErrorPage status={status} message={message} advice={advice} appName={appName} />,
    status as 400,
  );
}
