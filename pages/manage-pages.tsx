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

const STATUS_LABELS: Record<string, string> = { active: 'Connected', needs_reauth: 'Needs a new export', revoked: 'Disconnected' };

/** Fixed sentences for the `notice` a redirect after an action carries: nothing from the URL is echoed. */
const NOTICES: Record<string, string> = {
  'conversation-deleted': 'The conversation was deleted.',
  disconnected: 'The connection was disconnected and its conversations deleted.',
  'all-deleted': 'All your data was deleted.',
};

function Notice({ notice }: { notice?: string | undefined }) {
  const text = notice ? NOTICES[notice] : undefined;
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
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return pages > 1 ? (
    <nav class="pager" aria-label="Pages">
      {page > 1 ? <a href={href(page - 1)}>{props.previous}</a> : <span />}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? <a href={href(page + 1)}>{props.next}</a> : <span />}
    </nav>
  ) : null;
}

/** The search box (a plain GET form) and, after a search, its results: best match first, the matching words marked. */
function Search({ search, pageSize, maxLength }: { search: SearchView | undefined; pageSize: number; maxLength: number }) {
  const href = (page: number) => `/manage?${new URLSearchParams({ q: search?.q ?? '', page: String(page) })}`;
  return (
    <section class="card" aria-labelledby="search-title">
      <h2 id="search-title">Search your conversations</h2>
      <form method="get" action="/manage" role="search" class="search">
        <label for="search-q">Words to find in titles and messages</label>
        <span class="search-row">
          <input id="search-q" type="search" name="q" value={search?.q ?? ''} maxLength={maxLength} autocomplete="off" />
          <button type="submit" class="button">
            Search
          </button>
        </span>
      </form>
      {search &&
        (search.results.length === 0 ? (
          <p role="status">{search.page > 1 ? 'No more conversations match.' : 'No conversations match.'}</p>
        ) : (
          <>
            <p role="status">
              {search.total} {search.total === 1 ? 'conversation matches' : 'conversations match'}, best match first
            </p>
            <ul class="conversations results">
              {search.results.map((result) => (
                <li key={result.id}>
                  <a href={`/manage/conversations/${result.id}`}>{result.title ?? 'Untitled conversation'}</a>
                  <span class="muted small">
                    {providerName(result.provider)} · <Time iso={result.update_time} />
                  </span>
                  {result.snippet.length > 0 && <p class="snippet">{result.snippet.map((part) => (part.marked ? <mark>{part.text}</mark> : part.text))}</p>}
                </li>
              ))}
            </ul>
            <Pager page={search.page} total={search.total} pageSize={pageSize} href={href} previous="← Better matches" next="More matches →" />
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
  return (
    <Layout title={search ? `“${search.q}”: your conversations` : 'Your imported conversations'} appName={appName}>
      <Notice notice={notice} />
      {(connections.length > 0 || search) && <Search search={search} pageSize={pageSize} maxLength={props.queryMaxLength} />}
      <section class="card" aria-labelledby="manage-title">
        <h1 id="manage-title">Your imported conversations</h1>
        {connections.length === 0 ? (
          <p>There is nothing here: no conversations have been imported for you.</p>
        ) : (
          <ul class="connections">
            {connections.map((connection) => (
              <li key={connection.id} class="connection">
                <h2>{providerName(connection.provider)}</h2>
                <p>
                  <span class={`badge ${connection.status}`}>{STATUS_LABELS[connection.status] ?? connection.status}</span>
                </p>
                <Facts
                  kind="facts"
                  facts={[
                    ['Connected on', <Time iso={connection.captured_at} />],
                    ['Last import', <Time iso={connection.last_sync_at} />],
                    ['Conversations', connection.conversation_count],
                  ]}
                />
                <p>
                  <a class="button secondary" href={`/manage/connections/${connection.id}`}>
                    View conversations
                  </a>
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      {connections.length > 0 && (
        <>
          <section class="card" aria-labelledby="download-title">
            <h2 id="download-title">Download your data</h2>
            <p>
              One JSON file with everything {appName} holds for you: each connection and all its conversations, every message included — to keep, or
              to take to another service.
            </p>
            <a class="button" href="/manage/download" download>
              Download my data
            </a>
          </section>
          <section class="card danger-zone" aria-labelledby="delete-all-title">
            <h2 id="delete-all-title">Delete everything</h2>
            <p>Remove all your imported conversations and connections from {appName}.</p>
            <a class="button danger" href="/manage/delete-all">
              Delete all my data
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
  const name = providerName(connection.provider);
  const pageHref = (n: number) => `/manage/connections/${connection.id}?page=${n}`;
  return (
    <Layout title={`${name} conversations`} appName={appName}>
      <p class="back">
        <a href="/manage">← All connections</a>
      </p>
      <Notice notice={notice} />
      <section class="card" aria-labelledby="connection-title">
        <h1 id="connection-title">{name} conversations</h1>
        <p>
          <span class={`badge ${connection.status}`}>{STATUS_LABELS[connection.status] ?? connection.status}</span> · {total}{' '}
          {total === 1 ? 'conversation' : 'conversations'}, newest first
        </p>
        {conversations.length === 0 ? (
          <p>No conversations {page > 1 ? 'on this page' : 'here'}.</p>
        ) : (
          <ul class="conversations">
            {conversations.map((conversation) => (
              <li key={conversation.id}>
                <a href={`/manage/conversations/${conversation.id}`}>{conversation.title ?? 'Untitled conversation'}</a>
                <span class="muted small">
                  <Time iso={conversation.update_time} />
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} total={total} pageSize={pageSize} href={pageHref} previous="← Newer" next="Older →" />
      </section>
      {connection.status !== 'revoked' && (
        <section class="card danger-zone" aria-labelledby="disconnect-title">
          <h2 id="disconnect-title">Disconnect {name}</h2>
          <p>Deletes these conversations from {appName} and stops using this connection.</p>
          <a class="button danger" href={`/manage/connections/${connection.id}/disconnect`}>
            Disconnect
          </a>
        </section>
      )}
    </Layout>
  );
}

export function ManageConversationPage(props: {
  appName: string;
  conversation: { id: string; title: string | null; update_time: string | null; connection_id: string; provider: string };
  messages: Array<{ role: string; content: string; timestamp: string | null }>;
}) {
  const { appName, conversation, messages } = props;
  const title = conversation.title ?? 'Untitled conversation';
  const toHtml = markdownRenderer();
  return (
    <Layout title={title} appName={appName}>
      <p class="back">
        <a href={`/manage/connections/${conversation.connection_id}`}>← {providerName(conversation.provider)} conversations</a>
      </p>
      <section class="card" aria-labelledby="conversation-title">
        <h1 id="conversation-title">{title}</h1>
        <p class="muted small">
          Last updated <Time iso={conversation.update_time} />
        </p>
        {messages.length === 0 ? (
          <p>This conversation has no messages.</p>
        ) : (
          <ol class="messages">
            {messages.map((message, i) => (
              <li key={i} class={`message ${message.role}`}>
                <p class="meta">
                  <strong>{ROLE_LABELS[message.role] ?? message.role}</strong> <Time iso={message.timestamp} />
                </p>
                {/* markdown-it escapes every character of the message itself: see markdown.ts. */}
                <div class="content" dangerouslySetInnerHTML={{ __html: toHtml(message.content) }} />
              </li>
            ))}
          </ol>
        )}
      </section>
      <section class="card danger-zone" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete this conversation</h2>
        <a class="button danger" href={`/manage/conversations/${conversation.id}/delete`}>
          Delete conversation
        </a>
      </section>
    </Layout>
  );
}

const ROLE_LABELS: Record<string, string> = { user: 'You', assistant: 'Assistant', system: 'System', tool: 'Tool' };

export function ConfirmPage(props: {
  appName: string;
  title: string;
  explanation: string;
  action: string;
  csrfToken: string;
  confirmLabel: string;
  cancelHref: string;
}) {
  return (
    <Layout title={props.title} appName={props.appName}>
      <section class="card danger-zone" aria-labelledby="confirm-title">
        <h1 id="confirm-title">{props.title}</h1>
        <p>{props.explanation}</p>
        <p>This cannot be undone.</p>
        <form method="post" action={props.action} class="actions">
          <input type="hidden" name="csrf" value={props.csrfToken} />
          <button type="submit" class="button danger">
            {props.confirmLabel}
          </button>
          <a class="button secondary" href={props.cancelHref}>
            Cancel
          </a>
        </form>
      </section>
    </Layout>
  );
}
