import { savedName } from '../src/attachments/content-type.ts';
import { neutraliseBidi } from '../src/bidi-controls.ts';
import type { AttachmentView } from '../src/conversations/attachments.ts';
import type { Messages } from './i18n/en.ts';
import { useMessages } from './i18n/messages-context.ts';
import { Layout, Time } from './layout.tsx';
import { pageTexts, type ShownText } from './markdown.ts';
import { ProviderMark } from './provider-marks.tsx';
import { providerName } from './providers.ts';

interface ConnectionView {
  id: string;
  provider: string;
  status: string;
  captured_at: string;
  last_sync_at: string | null;
  conversation_count: number;
  /** What else it holds, where the listing counted it (a count from PostgreSQL may come as a string). */
  memory_count?: number | string;
  project_count?: number | string;
}

function StatusBadge({ status }: { status: string }) {
  const t = useMessages();
  return <span class={`badge ${status}`}>{t.statuses[status] ?? status}</span>;
}

/** A conversation's title as a page names it: its direction controls neutralised (see bidi-controls.ts). */
export const shownTitle = (title: string | null, t: Messages) => (title === null ? t.untitled : neutraliseBidi(title));

/** A fixed sentence for the `notice` a redirect after an action carries: nothing from the URL is echoed. */
export function Notice({ notice }: { notice?: string | undefined }) {
  const t = useMessages();
  const text = notice && Object.hasOwn(t.notices, notice) ? t.notices[notice] : undefined;
  return text ? (
    <p class="notice" role="status">
      {text}
    </p>
  ) : null;
}

interface SearchView {
  q: string;
  page: number;
  total: number;
  results: Array<{
    id: string;
    title: string | null;
    update_time: string | null;
    provider: string;
    snippet: Array<{ text: string; marked: boolean }>;
  }>;
}

/** Previous and next links for a list in pages of `pageSize`. */
export function Pager(props: {
  page: number;
  total: number;
  pageSize: number;
  href: (page: number) => string;
  previous: string;
  next: string;
}) {
  const { page, total, pageSize, href } = props;
  const t = useMessages();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return pages > 1 ? (
    <nav class="pager" aria-label={t.pages}>
      {page > 1 ? <a href={href(page - 1)}>{props.previous}</a> : <span />}
      <span>{t.pageOf({ page, pages })}</span>
      {page < pages ? <a href={href(page + 1)}>{props.next}</a> : <span />}
    </nav>
  ) : null;
}

/**
 * The search box, a plain GET form. It sends the person to the results' anchor,
 * so the browser scrolls the results into view, no script needed.
 */
function SearchForm({ q, maxLength }: { q: string; maxLength: number }) {
  const t = useMessages();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a form with role="search" is the search landmark every browser and screen reader knows; <search> is too new for some of the phones the pages serve
    <form method="get" action="/manage#results" role="search" class="search">
      <label for="search-q">{t.searchTitle}</label>
      <p class="muted small hint" id="search-hint">
        {t.searchLabel}
      </p>
      <span class="search-row">
        <input
          id="search-q"
          type="search"
          name="q"
          value={q}
          maxLength={maxLength}
          autocomplete="off"
          aria-describedby="search-hint"
        />
        <button type="submit" class="button">
          {t.searchButton}
        </button>
      </span>
    </form>
  );
}

/** A search's results, best match first, the matching words marked: they stand where the connections stood. */
function SearchResults({ search, pageSize }: { search: SearchView; pageSize: number }) {
  const t = useMessages();
  const href = (page: number) => `/manage?${new URLSearchParams({ q: search.q, page: String(page) })}#results`;
  return (
    <section class="card" id="results" aria-labelledby="results-title">
      <h2 id="results-title">{t.searchPageTitle({ q: search.q })}</h2>
      {search.results.length === 0 ? (
        <p role="status">{search.page > 1 ? t.searchNoMore : t.searchNone}</p>
      ) : (
        <>
          <p role="status">{t.searchMatches({ count: search.total })}</p>
          <ul class="conversations results">
            {search.results.map((result) => (
              <li key={result.id}>
                <a href={`/manage/conversations/${result.id}`}>{shownTitle(result.title, t)}</a>
                <span class="muted small">
                  {providerName(result.provider)} · <Time iso={result.update_time} />
                </span>
                {/* A piece cut out of a message: its file lines' names among it, its direction controls no longer paired with what ended them. */}
                {result.snippet.length > 0 && (
                  <p class="snippet">
                    {result.snippet.map((part) =>
                      part.marked ? <mark>{neutraliseBidi(part.text)}</mark> : neutraliseBidi(part.text),
                    )}
                  </p>
                )}
              </li>
            ))}
          </ul>
          <Pager
            page={search.page}
            total={search.total}
            pageSize={pageSize}
            href={href}
            previous={`← ${t.betterMatches}`}
            next={`${t.moreMatches} →`}
          />
        </>
      )}
      <p>
        <a href="/manage">← {t.allConnections}</a>
      </p>
    </section>
  );
}

/** A connection's memories and projects, counted, those it has none of left out. */
const besideCounts = (connection: ConnectionView, t: Messages) =>
  [
    Number(connection.memory_count ?? 0) > 0 && t.memoryCount({ count: Number(connection.memory_count) }),
    Number(connection.project_count ?? 0) > 0 && t.projectCount({ count: Number(connection.project_count) }),
  ].filter((count) => count !== false);

/** One connection as a compact row: the whole row opens its conversations, unless it was disconnected. */
function ConnectionRow({ connection, now }: { connection: ConnectionView; now: number }) {
  const t = useMessages();
  const name = providerName(connection.provider);
  const updated = connection.last_sync_at ?? connection.captured_at;
  if (connection.status === 'revoked') {
    return (
      <li class="connection revoked">
        <ProviderMark provider={connection.provider} />
        <span class="row-text">
          <strong>{name}</strong>
          <span class="muted small">{t.disconnectedRow}</span>
        </span>
      </li>
    );
  }
  return (
    <li class="connection">
      <a href={`/manage/connections/${connection.id}`}>
        <ProviderMark provider={connection.provider} />
        <span class="row-text">
          <strong>
            {name}
            {connection.status !== 'active' && <StatusBadge status={connection.status} />}
          </strong>
          <span class="muted small">
            {[t.conversationCount({ count: connection.conversation_count }), ...besideCounts(connection, t)].join(
              ' · ',
            )}{' '}
            ·{' '}
            <time dateTime={updated} title={t.dateTime(new Date(updated))} data-relative>
              {t.updatedAgo({ when: t.ago(new Date(updated), now) })}
            </time>
          </span>
        </span>
        <span class="chevron" aria-hidden="true">
          ›
        </span>
      </a>
    </li>
  );
}

export function ManageHomePage(props: {
  appName: string;
  connections: ConnectionView[];
  search?: SearchView | undefined;
  /** The search's page size, and how long a search may be. */
  pageSize: number;
  queryMaxLength: number;
  notice?: string | undefined;
  /** What "Delete all" just deleted, right after it. */
  deleted?: { connections: number; conversations: number } | undefined;
  /** The time relative times ("2 hr. ago") are told from. */
  now: number;
  /** What the app read of the person's data in the last 30 days, by its server (`api`) and its assistant (`agent`). */
  access?: AccessView | undefined;
  /** The session's form token, for the import's button. */
  csrfToken: string;
}) {
  const { appName, connections, search, pageSize, notice, deleted, now, access } = props;
  const t = useMessages();
  return (
    <Layout title={search ? t.searchPageTitle({ q: search.q }) : t.manageTitle} appName={appName}>
      <Notice notice={notice} />
      <section class="card" aria-labelledby="manage-title">
        <h1 id="manage-title">{t.manageTitle}</h1>
        {deleted ? (
          <div class="notice" role="status">
            <p>
              <strong>{t.allDeletedHeading}</strong>
            </p>
            <p>{t.allDeletedText({ ...deleted, app: appName })}</p>
          </div>
        ) : (
          connections.length === 0 && !search && <p>{t.nothingImported}</p>
        )}
        {(connections.length > 0 || search) && <SearchForm q={search?.q ?? ''} maxLength={props.queryMaxLength} />}
      </section>
      {search ? (
        <SearchResults search={search} pageSize={pageSize} />
      ) : (
        connections.length > 0 && (
          <section class="card" aria-labelledby="connections-title">
            <h2 id="connections-title">{t.connectionsHeading}</h2>
            <ul class="connections">
              {connections.map((connection) => (
                <ConnectionRow key={connection.id} connection={connection} now={now} />
              ))}
            </ul>
          </section>
        )
      )}
      {!search && (
        <section class="card" aria-labelledby="import-title">
          <h2 id="import-title">{t.importHeading}</h2>
          <p>{t.importText({ app: appName })}</p>
          <form method="post" action="/manage/import">
            <input type="hidden" name="csrf" value={props.csrfToken} />
            <button type="submit" class="button secondary">
              {t.importButton}
            </button>
          </form>
        </section>
      )}
      {access && !search && <AccessLog appName={appName} access={access} />}
      {connections.length > 0 && (
        <>
          <section class="card" aria-labelledby="download-title">
            <h2 id="download-title">{t.downloadHeading}</h2>
            <p>{t.downloadText({ app: appName })}</p>
            <a class="button" href="/manage/download" download>
              {t.downloadButton}
            </a>
          </section>
          <section class="card danger-zone" aria-labelledby="delete-all-title">
            <h2 id="delete-all-title">{t.deleteAllHeading}</h2>
            <p>{t.deleteAllText({ app: appName })}</p>
            <a class="button danger" href="/manage/delete-all">
              {t.deleteAllButton}
            </a>
          </section>
        </>
      )}
    </Layout>
  );
}

/** Per channel: on how many days, how many reads, how many of them searches. */
export interface AccessView {
  api: { days: number; reads: number; searches: number };
  agent: { days: number; reads: number; searches: number };
}

/** Who read the person's conversations lately, in plain words. */
function AccessLog({ appName, access }: { appName: string; access: AccessView }) {
  const t = useMessages();
  const app = appName;
  return (
    <section class="card" aria-labelledby="access-title">
      <h2 id="access-title">{t.accessHeading}</h2>
      {access.api.reads === 0 && access.agent.reads === 0 ? (
        <p>{t.accessNone({ app })}</p>
      ) : (
        <p>
          {access.api.reads > 0 && t.accessServer({ app, days: access.api.days })}
          {access.api.reads > 0 && access.agent.reads > 0 && ' '}
          {access.agent.reads > 0 && t.accessAgent({ app, ...access.agent })}
        </p>
      )}
    </section>
  );
}

interface ConversationListItem {
  id: string;
  title: string | null;
  update_time: string | null;
}

export function ManageConnectionPage(props: {
  appName: string;
  connection: ConnectionView & { memory_count: number; project_count: number };
  conversations: ConversationListItem[];
  total: number;
  page: number;
  pageSize: number;
  notice?: string | undefined;
}) {
  const { appName, connection, conversations, total, page, pageSize, notice } = props;
  const t = useMessages();
  const name = providerName(connection.provider);
  const pageHref = (n: number) => `/manage/connections/${connection.id}?page=${n}`;
  return (
    <Layout title={t.providerConversations({ provider: name })} appName={appName}>
      <p class="back">
        <a href="/manage">← {t.allConnections}</a>
      </p>
      <Notice notice={notice} />
      <section class="card" aria-labelledby="connection-title">
        <h1 id="connection-title">{t.providerConversations({ provider: name })}</h1>
        {connection.status === 'revoked' ? (
          <p>
            <StatusBadge status={connection.status} /> {t.revokedText({ app: appName })}
          </p>
        ) : (
          <p>
            <StatusBadge status={connection.status} /> · {t.countNewestFirst({ count: total })}
          </p>
        )}
        {connection.status === 'revoked' ? null : conversations.length === 0 ? (
          <p>{page > 1 ? t.noConversationsOnPage : t.noConversations}</p>
        ) : (
          <ul class="conversations">
            {conversations.map((conversation) => (
              <li key={conversation.id}>
                <a href={`/manage/conversations/${conversation.id}`}>{shownTitle(conversation.title, t)}</a>
                <span class="muted small">
                  <Time iso={conversation.update_time} />
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pager
          page={page}
          total={total}
          pageSize={pageSize}
          href={pageHref}
          previous={`← ${t.newer}`}
          next={`${t.older} →`}
        />
      </section>
      {connection.status !== 'revoked' && connection.memory_count + connection.project_count > 0 && (
        <section class="card" aria-labelledby="beside-title">
          <h2 id="beside-title">{t.besideHeading}</h2>
          <ul class="conversations">
            {connection.memory_count > 0 && (
              <li>
                <a href={`/manage/connections/${connection.id}/memories`}>
                  {t.memoryCount({ count: connection.memory_count })}
                </a>
              </li>
            )}
            {connection.project_count > 0 && (
              <li>
                <a href={`/manage/connections/${connection.id}/projects`}>
                  {t.projectCount({ count: connection.project_count })}
                </a>
              </li>
            )}
          </ul>
        </section>
      )}
      {connection.status !== 'revoked' && (
        <section class="card danger-zone" aria-labelledby="disconnect-title">
          <h2 id="disconnect-title">{t.disconnectHeading({ provider: name })}</h2>
          <p>{t.disconnectText({ app: appName })}</p>
          <a class="button danger" href={`/manage/connections/${connection.id}/disconnect`}>
            {t.disconnectButton}
          </a>
        </section>
      )}
    </Layout>
  );
}

/** Its name, and its size where known. */
function FileLabel({ attachment }: { attachment: AttachmentView }) {
  const t = useMessages();
  return (
    <>
      <span class="file-name">{neutraliseBidi(attachment.name)}</span>
      {attachment.size !== null && <span class="muted small"> · {t.bytes(attachment.size)}</span>}
    </>
  );
}

/**
 * One file of a message: an image shown (from Parley itself, raster images
 * only), a document's text folded away, any other file a download link; one
 * the export did not hold is named, with nothing to open.
 */
export function AttachmentItem({ attachment, deletable = true }: { attachment: AttachmentView; deletable?: boolean }) {
  const t = useMessages();
  const href = `/manage/attachments/${attachment.id}`;
  const name = neutraliseBidi(attachment.name);
  const saved = neutraliseBidi(savedName(attachment));
  const body = !attachment.stored ? (
    <p class="file">
      <FileLabel attachment={attachment} /> <span class="muted small">· {t.attachmentNotStored}</span>
    </p>
  ) : attachment.inlineImage ? (
    <a class="image" href={href}>
      <img src={href} alt={name} loading="lazy" />
    </a>
  ) : attachment.preview ? (
    <details class="document">
      <summary>
        <FileLabel attachment={attachment} />
      </summary>
      {/* Scrolls when long: a keyboard must reach it to scroll it too, as markdown.ts does for code blocks. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region needs focus to be scrolled without a mouse (axe: scrollable-region-focusable) */}
      <pre tabIndex={0}>{attachment.preview.text}</pre>
      {!attachment.preview.complete && (
        <p class="small">
          {t.documentCut}{' '}
          <a href={href} download={saved}>
            {t.downloadWholeText}
          </a>
        </p>
      )}
    </details>
  ) : (
    <p class="file">
      <a href={href} download={saved}>
        <FileLabel attachment={attachment} />
      </a>
    </p>
  );
  return (
    <li class={`attachment ${attachment.kind}`}>
      {body}
      {(attachment.inlineImage || deletable) && (
        <p class="attachment-actions small">
          {attachment.inlineImage && (
            <span class="muted">
              <FileLabel attachment={attachment} />
            </span>
          )}
          {deletable && (
            <a href={`${href}/delete`} aria-label={t.deleteAttachmentLabel({ name })}>
              {t.deleteAttachment}
            </a>
          )}
        </p>
      )}
    </li>
  );
}

/** A message as its conversation's page shows it: its texts rendered by shownMessages. */
export interface MessageView {
  role: string;
  timestamp: string | null;
  model?: string;
  /** Characters of its text (a long conversation ends with a way back to its top). */
  length: number;
  content: ShownText;
  reasoning?: ShownText;
  /** A tool's long output: its first lines, shown above the rest folded away. */
  head?: OutputHead;
  attachments: AttachmentView[];
}

interface OutputHead {
  text: string;
  /** Lines of the whole output. */
  lines: number;
}

/** Lines of a tool's output shown before the rest is folded away, and the most characters they show. */
const OUTPUT_HEAD_LINES = 5;
const OUTPUT_HEAD_CHARACTERS = 600;

/**
 * The start of a tool's output long enough to fold (over twice what its start
 * shows, so that folding hides more than it shows), or undefined.
 */
function outputHead(content: string): OutputHead | undefined {
  const lines = content.split('\n');
  if (lines.length <= 2 * OUTPUT_HEAD_LINES && content.length <= 2 * OUTPUT_HEAD_CHARACTERS) return undefined;
  return { text: lines.slice(0, OUTPUT_HEAD_LINES).join('\n').slice(0, OUTPUT_HEAD_CHARACTERS), lines: lines.length };
}

/** The lines an import writes for a message's files, `[file: name]` and `[attachment: name]`: their names are neutralised as every name a page shows. */
const FILE_LINES = /^\[(?:file|attachment): .*$/gm;

/**
 * A conversation's messages as its page shows them: the names in their file
 * lines neutralised, their text and reasoning rendered within the page's
 * Markdown budgets (markdown.ts), a turn for other requests in between.
 */
export async function shownMessages(
  messages: Array<
    Omit<MessageView, 'length' | 'content' | 'reasoning' | 'head'> & { content: string; reasoning?: string }
  >,
  t: Messages,
  turn: () => Promise<void>,
): Promise<MessageView[]> {
  const shown = pageTexts(t.code, turn);
  const views: MessageView[] = [];
  for (const { content, reasoning, ...message } of messages) {
    const head = message.role === 'tool' ? outputHead(content) : undefined;
    views.push({
      ...message,
      length: content.length,
      content: await shown(content.replace(FILE_LINES, neutraliseBidi)),
      ...(reasoning ? { reasoning: await shown(reasoning) } : {}),
      ...(head ? { head } : {}),
    });
  }
  return views;
}

/** A conversation long enough (about three phone screens) to want a way back to its top. */
const isLong = (messages: MessageView[]) =>
  messages.length > 8 || messages.reduce((sum, message) => sum + message.length, 0) > 3_000;

/**
 * A message's text or reasoning. Past the page's Markdown budget, the text as
 * it is (line breaks kept by the stylesheet), and a line saying why.
 */
export function MessageText({ text }: { text: ShownText }) {
  const t = useMessages();
  return text.formatted ? (
    // markdown-it escapes every character of the message itself: see markdown.ts.
    <div class="content" dangerouslySetInnerHTML={{ __html: text.html }} />
  ) : (
    <>
      {/* Escaped by pageTexts (markdown.ts). */}
      <div class="content plain" dangerouslySetInnerHTML={{ __html: text.html }} />
      <p class="muted small">{t.shownAsPlainText}</p>
    </>
  );
}

export function ManageConversationPage(props: {
  appName: string;
  conversation: {
    id: string;
    title: string | null;
    update_time: string | null;
    connection_id: string;
    provider: string;
  };
  messages: MessageView[];
  notice?: string | undefined;
}) {
  const { appName, conversation, messages, notice } = props;
  const t = useMessages();
  const title = shownTitle(conversation.title, t);
  return (
    <Layout title={title} appName={appName}>
      <p class="back">
        <a href={`/manage/connections/${conversation.connection_id}`}>
          ← {t.providerConversations({ provider: providerName(conversation.provider) })}
        </a>
      </p>
      <Notice notice={notice} />
      {/* The messages are the page's cards: no card around them to squeeze their code. */}
      <article class="conversation" aria-labelledby="conversation-title">
        <h1 id="conversation-title">{title}</h1>
        <p class="muted small">
          {t.lastUpdated} <Time iso={conversation.update_time} />
        </p>
        {messages.length === 0 ? (
          <p>{t.noMessages}</p>
        ) : (
          <ol class="messages" data-text-copy={t.copyCode} data-text-copied={t.codeCopied}>
            {messages.map((message, i) => (
              <li key={i} class={`message ${message.role}`}>
                <p class="meta">
                  <strong>{t.roles[message.role] ?? message.role}</strong> <Time iso={message.timestamp} />
                  {message.model ? <span class="model"> · {message.model}</span> : null}
                </p>
                {/* Before the answer it led to, as the assistants show it: folded away, opened without a script. */}
                {message.reasoning ? (
                  <details class="reasoning">
                    <summary>{t.reasoning}</summary>
                    <MessageText text={message.reasoning} />
                  </details>
                ) : null}
                {message.head ? (
                  // A tool's long output: its first lines, the whole of it one click away.
                  <details class="tool-output">
                    <summary>
                      <span class="output-head">{message.head.text}</span>
                      <span class="output-more">{t.showWholeOutput({ count: message.head.lines })}</span>
                    </summary>
                    <MessageText text={message.content} />
                  </details>
                ) : (
                  <MessageText text={message.content} />
                )}
                {message.attachments.length > 0 && (
                  <ul class="attachments" aria-label={t.attachmentsLabel}>
                    {message.attachments.map((attachment) => (
                      <AttachmentItem key={attachment.id} attachment={attachment} />
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        )}
        {isLong(messages) && (
          <p class="to-top">
            <a href="#top">↑ {t.backToTop}</a>
          </p>
        )}
      </article>
      <section class="card danger-zone" aria-labelledby="delete-title">
        <h2 id="delete-title">{t.deleteConversationHeading}</h2>
        <a class="button danger" href={`/manage/conversations/${conversation.id}/delete`}>
          {t.deleteConversationButton}
        </a>
      </section>
    </Layout>
  );
}

/**
 * What a manage link shows anything but a person's own navigation (a chat app's
 * preview, a mail scanner): one button, which consumes the link by a POST.
 */
export function OpenManagePage({ appName, token }: { appName: string; token: string }) {
  const t = useMessages();
  return (
    <Layout title={t.openTitle} appName={appName}>
      <section class="card" aria-labelledby="open-title">
        <h1 id="open-title">{t.openHeading({ app: appName })}</h1>
        <p>{t.openText}</p>
        <form method="post" action="/manage">
          <input type="hidden" name="token" value={token} />
          <button type="submit" class="button">
            {t.openButton}
          </button>
        </form>
        <p class="muted small">{t.linkWorksOnce}</p>
      </section>
    </Layout>
  );
}

export function ConfirmPage(props: {
  appName: string;
  title: string;
  explanation: string;
  action: string;
  csrfToken: string;
  confirmLabel: string;
  cancelHref: string;
  /** Whether a later import of the same export leaves it deleted (until its connection is disconnected). */
  staysDeleted?: boolean | undefined;
}) {
  const t = useMessages();
  return (
    <Layout title={props.title} appName={props.appName}>
      <section class="card danger-zone" aria-labelledby="confirm-title">
        <h1 id="confirm-title">{props.title}</h1>
        <p>{props.explanation}</p>
        {props.staysDeleted && <p>{t.staysDeleted}</p>}
        <p>{t.cannotBeUndone}</p>
        <form method="post" action={props.action} class="actions">
          <input type="hidden" name="csrf" value={props.csrfToken} />
          <button type="submit" class="button danger">
            {props.confirmLabel}
          </button>
          <a class="button secondary" href={props.cancelHref}>
            {t.cancel}
          </a>
        </form>
      </section>
    </Layout>
  );
}
