import { useMessages } from './i18n/messages-context.ts';
import { Facts, Layout, Time } from './layout.tsx';
import { markdownRenderer } from './markdown.ts';
import { providerName } from './providers.ts';

interface ConnectionView {
  id: string;
  provider: string;
  status: string;
  captured_at: string;
  last_sync_at: string | null;
  conversation_count: number;
}

function StatusBadge({ status }: { status: string }) {
  const t = useMessages();
  return <span class={`badge ${status}`}>{t.statuses[status] ?? status}</span>;
}

/** A fixed sentence for the `notice` a redirect after an action carries: nothing from the URL is echoed. */
function Notice({ notice }: { notice?: string | undefined }) {
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
  results: Array<{ id: string; title: string | null; update_time: string | null; provider: string; snippet: Array<{ text: string; marked: boolean }> }>;
}

/** Previous and next links for a list in pages of `pageSize`. */
function Pager(props: { page: number; total: number; pageSize: number; href: (page: number) => string; previous: string; next: string }) {
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

/** The search box (a plain GET form) and, after a search, its results: best match first, the matching words marked. */
function Search({ search, pageSize, maxLength }: { search: SearchView | undefined; pageSize: number; maxLength: number }) {
  const t = useMessages();
  const href = (page: number) => `/manage?${new URLSearchParams({ q: search?.q ?? '', page: String(page) })}`;
  return (
    <section class="card" aria-labelledby="search-title">
      <h2 id="search-title">{t.searchTitle}</h2>
      <form method="get" action="/manage" role="search" class="search">
        <label for="search-q">{t.searchLabel}</label>
        <span class="search-row">
          <input id="search-q" type="search" name="q" value={search?.q ?? ''} maxLength={maxLength} autocomplete="off" />
          <button type="submit" class="button">
            {t.searchButton}
          </button>
        </span>
      </form>
      {search &&
        (search.results.length === 0 ? (
          <p role="status">{search.page > 1 ? t.searchNoMore : t.searchNone}</p>
        ) : (
          <>
            <p role="status">{t.searchMatches({ count: search.total })}</p>
            <ul class="conversations results">
              {search.results.map((result) => (
                <li key={result.id}>
                  <a href={`/manage/conversations/${result.id}`}>{result.title ?? t.untitled}</a>
                  <span class="muted small">
                    {providerName(result.provider)} · <Time iso={result.update_time} />
                  </span>
                  {result.snippet.length > 0 && <p class="snippet">{result.snippet.map((part) => (part.marked ? <mark>{part.text}</mark> : part.text))}</p>}
                </li>
              ))}
            </ul>
            <Pager page={search.page} total={search.total} pageSize={pageSize} href={href} previous={`← ${t.betterMatches}`} next={`${t.moreMatches} →`} />
          </>
        ))}
    </section>
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
}) {
  const { appName, connections, search, pageSize, notice } = props;
  const t = useMessages();
  return (
    <Layout title={search ? t.searchPageTitle({ q: search.q }) : t.manageTitle} appName={appName}>
      <Notice notice={notice} />
      <section class="card" aria-labelledby="manage-title">
        <h1 id="manage-title">{t.manageTitle}</h1>
        {connections.length === 0 ? (
          <p>{t.nothingImported}</p>
        ) : (
          <ul class="connections">
            {connections.map((connection) => (
              <li key={connection.id} class="connection">
                <h2>{providerName(connection.provider)}</h2>
                <p>
                  <StatusBadge status={connection.status} />
                </p>
                <Facts
                  kind="facts"
                  facts={[
                    [t.connectedOn, <Time iso={connection.captured_at} />],
                    [t.lastImport, <Time iso={connection.last_sync_at} />],
                    [t.conversations, connection.conversation_count],
                  ]}
                />
                <p>
                  <a class="button secondary" href={`/manage/connections/${connection.id}`}>
                    {t.viewConversations}
                  </a>
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      {/* After the page's h1, so the outline starts with the page's own title. */}
      {(connections.length > 0 || search) && <Search search={search} pageSize={pageSize} maxLength={props.queryMaxLength} />}
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

interface ConversationListItem {
  id: string;
  title: string | null;
  update_time: string | null;
}

export function ManageConnectionPage(props: {
  appName: string;
  connection: ConnectionView;
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
        <p>
          <StatusBadge status={connection.status} /> · {t.countNewestFirst({ count: total })}
        </p>
        {conversations.length === 0 ? (
          <p>{page > 1 ? t.noConversationsOnPage : t.noConversations}</p>
        ) : (
          <ul class="conversations">
            {conversations.map((conversation) => (
              <li key={conversation.id}>
                <a href={`/manage/conversations/${conversation.id}`}>{conversation.title ?? t.untitled}</a>
                <span class="muted small">
                  <Time iso={conversation.update_time} />
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} total={total} pageSize={pageSize} href={pageHref} previous={`← ${t.newer}`} next={`${t.older} →`} />
      </section>
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

export function ManageConversationPage(props: {
  appName: string;
  conversation: { id: string; title: string | null; update_time: string | null; connection_id: string; provider: string };
  messages: Array<{ role: string; content: string; timestamp: string | null; model?: string; reasoning?: string }>;
}) {
  const { appName, conversation, messages } = props;
  const t = useMessages();
  const title = conversation.title ?? t.untitled;
  const toHtml = markdownRenderer();
  return (
    <Layout title={title} appName={appName}>
      <p class="back">
        <a href={`/manage/connections/${conversation.connection_id}`}>← {t.providerConversations({ provider: providerName(conversation.provider) })}</a>
      </p>
      <section class="card" aria-labelledby="conversation-title">
        <h1 id="conversation-title">{title}</h1>
        <p class="muted small">
          {t.lastUpdated} <Time iso={conversation.update_time} />
        </p>
        {messages.length === 0 ? (
          <p>{t.noMessages}</p>
        ) : (
          <ol class="messages">
            {messages.map((message, i) => (
              <li key={i} class={`message ${message.role}`}>
                <p class="meta">
                  <strong>{t.roles[message.role] ?? message.role}</strong> <Time iso={message.timestamp} />
                  {message.model ? <span class="model"> · {message.model}</span> : null}
                </p>
                {/* markdown-it escapes every character of the message itself: see markdown.ts. */}
                <div class="content" dangerouslySetInnerHTML={{ __html: toHtml(message.content) }} />
                {/* Shown with the answer but not part of it: folded away, opened without a script. */}
                {message.reasoning ? (
                  <details class="reasoning">
                    <summary>{t.reasoning}</summary>
                    <div class="content" dangerouslySetInnerHTML={{ __html: toHtml(message.reasoning) }} />
                  </details>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </section>
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
}) {
  const t = useMessages();
  return (
    <Layout title={props.title} appName={props.appName}>
      <section class="card danger-zone" aria-labelledby="confirm-title">
        <h1 id="confirm-title">{props.title}</h1>
        <p>{props.explanation}</p>
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
