import { ParleyError } from './errors.ts';
import type {
  AgentToken,
  ConnectionList,
  Conversation,
  ConversationPage,
  ConversationSummaryPage,
  IngestResult,
  Memory,
  MemoryPage,
  Project,
  ProjectPage,
  Provider,
  PurgeResult,
} from './types.ts';

/** As much of fetch as the client uses. */
export type Fetch = (url: URL, init: RequestInit) => Promise<Response>;

export interface ParleyClientOptions {
  /** Where Parley is served, e.g. https://parley.example.com. */
  baseUrl: string;
  /** An API key (`parley_…`) of your app: keep it on your server. */
  apiKey: string;
  /** A fetch of your own (a proxy, a test double); the global one otherwise. */
  fetch?: Fetch;
  /** How many 429s in a row `conversations()` waits out before it throws; 5 when left out. */
  maxRateLimitWaits?: number;
}

/** An export to import: the file as the person downloaded it (zip, JSON or CSV), whole or as a stream. */
export interface IngestExportOptions {
  userRef: string;
  /**
   * The export; or, as an array, the files of one export (Claude's
   * `conversations-000.zip`, `memories-000.zip`, …), each sent as a resumable
   * upload, then imported together: all or nothing.
   */
  file: Blob | Uint8Array | ReadableStream<Uint8Array> | Array<Blob | Uint8Array>;
  /** The provider the file must be from; Parley recognises it either way. */
  provider?: Provider;
  /** Import into this connection rather than the user's open one of the file's provider. */
  connectionId?: string;
  /** The person's time zone (IANA, `Europe/Paris`), for times the export writes without one (Duck.ai); else UTC. */
  timeZone?: string;
  /**
   * Parley reads what the file is from its content; the type sent only has to be
   * one an export comes as. By default a Blob's own type if it is one of those,
   * `application/zip` for bytes that start as a zip, else `application/json`.
   */
  contentType?: 'application/json' | 'application/zip' | 'text/csv' | 'text/plain';
  /**
   * A file of at least this many bytes (a Blob or a Uint8Array: a stream's size is
   * not known) goes as a resumable upload (`/api/uploads`, tus 1.0.0) in parts of
   * `partBytes`, then is imported by its id: a dropped connection or a server
   * restart re-sends at most one part. 64 MiB when left out; `Infinity`: never.
   */
  resumableFrom?: number;
  /** Bytes per part of a resumable upload; 50 MiB when left out. */
  partBytes?: number;
}

/** What narrows a listing of memories or projects. */
export interface PagedQuery {
  /** Page size: at most 100, 50 when left out. */
  limit?: number;
  /** Only those Parley stored or changed after this instant, by its clock: a poll passes the time of its last one. */
  updatedSince?: Date | string;
}

/** What narrows a listing of conversations. */
export interface ConversationsQuery extends PagedQuery {
  /** Search: only conversations whose title or messages hold these words, best match first. */
  q?: string;
}

/** A page of any listing: its items, and where it stands. */
interface Page {
  total: number;
  limit: number;
  offset: number;
}

/** Bytes [start, end) of a file; without `end`, to its end. */
export interface ByteRange {
  start: number;
  end?: number;
}

/** An attachment's bytes as Parley serves them (`GET /api/attachments/{id}`). */
export interface AttachmentFile {
  /** The bytes (of the range, with one), read as they arrive: read it to the end or cancel it. */
  stream: ReadableStream<Uint8Array>;
  contentType: string;
  /** Bytes in `stream`. */
  size: number;
  /** The whole file's size (the same as `size` without a range). */
  totalSize: number;
  /** The file's name, made safe to save under. */
  name: string;
  /** Its SHA-256 (base64url), quoted: the same bytes always have the same. */
  etag: string;
  /** The range served, when one was asked for and served. */
  range?: { start: number; end: number };
}

/** The file name of a Content-Disposition: its RFC 5987 `filename*` where given, else `filename`. */
function dispositionName(header: string | null): string {
  const extended = header && /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended) return decodeURIComponent(extended[1]!.trim());
  return (header && /filename="([^"]*)"/.exec(header)?.[1]) || 'file';
}

/** An instant as the API takes it: ISO 8601 with its offset. */
const instant = (value: Date | string | undefined) => (value instanceof Date ? value.toISOString() : value);

const EXPORT_TYPES = ['application/json', 'application/zip', 'application/x-zip-compressed', 'text/csv', 'text/plain'];

function contentTypeOf({ file, contentType }: IngestExportOptions): string {
  if (contentType) return contentType;
  if (file instanceof Blob && EXPORT_TYPES.includes(file.type)) return file.type;
  if (file instanceof Uint8Array && file[0] === 0x50 && file[1] === 0x4b) return 'application/zip';
  return 'application/json';
}

const RESUMABLE_FROM = 64 * 1024 * 1024;
const PART_BYTES = 50 * 1024 * 1024;
/** Failed attempts in a row (a network error, a 5xx) after which a resumable upload gives up with the last one's error. */
const PART_ATTEMPTS = 5;
const TUS = { 'Tus-Resumable': '1.0.0' };

/** A tus Upload-Metadata value: the UTF-8 bytes of `text` in base64. */
const base64 = (text: string) =>
  btoa(Array.from(new TextEncoder().encode(text), (byte) => String.fromCharCode(byte)).join(''));

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * Parley's REST API for your backend. Every failure throws a ParleyError with
 * the HTTP status and the interface's message.
 *
 *   const parley = new ParleyClient({ baseUrl: 'https://parley.example.com', apiKey: process.env.PARLEY_API_KEY });
 *   for await (const conversation of parley.conversations(connectionId)) …
 */
export class ParleyClient {
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly fetch: Fetch;
  private readonly maxRateLimitWaits: number;

  constructor({ baseUrl, apiKey, fetch: fetchImpl, maxRateLimitWaits = 5 }: ParleyClientOptions) {
    if (typeof baseUrl !== 'string' || baseUrl === '')
      throw new TypeError('ParleyClient: baseUrl must be a non-empty string');
    if (typeof apiKey !== 'string' || apiKey === '')
      throw new TypeError('ParleyClient: apiKey must be a non-empty string');
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.apiKey = apiKey;
    // Called unbound, a global fetch would complain about its `this` on some runtimes.
    this.fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
    this.maxRateLimitWaits = maxRateLimitWaits;
  }

  /** The user's connections, newest capture first. */
  listConnections(userRef: string): Promise<ConnectionList> {
    return this.request('GET', '/api/conversations', { userRef });
  }

  /**
   * One page of a connection's conversations, newest update first (`limit` at
   * most 100, 50 by default); with `updatedSince`, only those Parley stored or
   * changed after that instant (its clock); with `q`, only those matching it, best match first.
   */
  listConversations(
    connectionId: string,
    query: ConversationsQuery & { offset?: number } = {},
  ): Promise<ConversationPage> {
    return this.listing(connectionId, query);
  }

  /** listConversations without the payloads: each conversation's id, title, times and `message_count`. */
  listConversationSummaries(
    connectionId: string,
    query: ConversationsQuery & { offset?: number } = {},
  ): Promise<ConversationSummaryPage> {
    return this.listing(connectionId, query, 'summary');
  }

  /** One conversation by its id, with its messages; counted by the rate limit like a listing. */
  getConversation(id: string): Promise<Conversation> {
    return this.request('GET', `/api/conversations/${encodeURIComponent(id)}`, {});
  }

  /**
   * Every conversation of the connection, page by page (each next page at the
   * offset the last one's `limit` further on), waiting out `Retry-After` when
   * the rate limit answers 429.
   */
  conversations(connectionId: string, query: ConversationsQuery = {}): AsyncGenerator<Conversation> {
    return this.everyItem(
      (offset) => this.listConversations(connectionId, { ...query, offset }),
      (page) => page.conversations,
    );
  }

  /**
   * One page of what the assistant remembers of the person (Claude's memories),
   * newest update first; with `updatedSince`, only those Parley stored or
   * changed after that instant.
   */
  listMemories(connectionId: string, { limit, offset, updatedSince }: PagedQuery & { offset?: number } = {}) {
    return this.request<MemoryPage>('GET', '/api/memories', {
      connectionId,
      limit,
      offset,
      updatedSince: instant(updatedSince),
    });
  }

  /** Every memory of the connection, page by page, as `conversations()` reads conversations. */
  memories(connectionId: string, query: PagedQuery = {}): AsyncGenerator<Memory> {
    return this.everyItem(
      (offset) => this.listMemories(connectionId, { ...query, offset }),
      (page) => page.memories,
    );
  }

  /**
   * One page of the person's projects (instructions, knowledge files: their
   * bytes with `attachment(id)`), newest update first.
   */
  listProjects(connectionId: string, { limit, offset, updatedSince }: PagedQuery & { offset?: number } = {}) {
    return this.request<ProjectPage>('GET', '/api/projects', {
      connectionId,
      limit,
      offset,
      updatedSince: instant(updatedSince),
    });
  }

  /** Every project of the connection, page by page, as `conversations()` reads conversations. */
  projects(connectionId: string, query: PagedQuery = {}): AsyncGenerator<Project> {
    return this.everyItem(
      (offset) => this.listProjects(connectionId, { ...query, offset }),
      (page) => page.projects,
    );
  }

  /**
   * Every item of a listing, page by page (each next page at the offset the
   * last one's `limit` further on), waiting out `Retry-After` when the rate
   * limit answers 429.
   */
  private async *everyItem<P extends Page, Item>(
    list: (offset: number) => Promise<P>,
    itemsOf: (page: P) => Item[],
  ): AsyncGenerator<Item> {
    for (let offset = 0; ; ) {
      const page = await this.waitingOutRateLimit(() => list(offset));
      const items = itemsOf(page);
      yield* items;
      if (items.length === 0 || page.offset + items.length >= page.total) return;
      offset = page.offset + page.limit;
    }
  }

  /**
   * Imports an export for a user; the file is streamed, never read whole by the
   * client. A large one goes as a resumable upload first (see `resumableFrom`).
   */
  async ingestExport(options: IngestExportOptions): Promise<IngestResult> {
    const { userRef, file, provider, connectionId, timeZone } = options;
    const partBytes = options.partBytes ?? PART_BYTES;
    if (Array.isArray(file)) {
      const upload: string[] = [];
      for (const part of file)
        upload.push(
          await this.uploadResumably(part, part instanceof Blob ? part.size : part.length, { userRef, partBytes }),
        );
      return this.request('POST', '/api/ingest-export', { userRef, provider, connectionId, timeZone, upload });
    }
    const size = file instanceof Blob ? file.size : file instanceof Uint8Array ? file.length : undefined;
    if (size !== undefined && size >= (options.resumableFrom ?? RESUMABLE_FROM)) {
      const upload = await this.uploadResumably(file as Blob | Uint8Array, size, { userRef, partBytes });
      return this.request('POST', '/api/ingest-export', { userRef, provider, connectionId, timeZone, upload });
    }
    return this.request(
      'POST',
      '/api/ingest-export',
      { userRef, provider, connectionId, timeZone },
      { body: file, contentType: contentTypeOf(options) },
    );
  }

  /**
   * An attachment's bytes (one a message lists with `stored: true`), as a stream;
   * with `range`, only those bytes (throws a 416 ParleyError past the end). Not
   * counted by the rate limit.
   *
   *   const file = await parley.attachment(message.attachments[0].id);
   *   await pipeline(Readable.fromWeb(file.stream), createWriteStream(file.name));
   */
  async attachment(id: string, { range }: { range?: ByteRange } = {}): Promise<AttachmentFile> {
    const headers: Record<string, string> = {};
    if (range) headers.Range = `bytes=${range.start}-${range.end === undefined ? '' : range.end - 1}`;
    const response = await this.send('GET', `/api/attachments/${encodeURIComponent(id)}`, {}, { headers });
    if (!response.ok) throw await errorOf(response);
    const size = Number(response.headers.get('Content-Length'));
    const served = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get('Content-Range') ?? '');
    return {
      stream: response.body ?? new ReadableStream({ start: (controller) => controller.close() }),
      contentType: response.headers.get('Content-Type') ?? 'application/octet-stream',
      size,
      totalSize: served ? Number(served[3]) : size,
      name: dispositionName(response.headers.get('Content-Disposition')),
      etag: response.headers.get('ETag') ?? '',
      ...(response.status === 206 && served ? { range: { start: Number(served[1]), end: Number(served[2]) + 1 } } : {}),
    };
  }

  /**
   * Sends `file` as a resumable upload, part by part; its id. After a failed
   * part (the connection dropped, a 5xx, another offset) it asks the server
   * how many bytes it kept and goes on from there.
   */
  private async uploadResumably(
    file: Blob | Uint8Array,
    size: number,
    { userRef, partBytes }: { userRef: string; partBytes: number },
  ): Promise<string> {
    const created = await this.send(
      'POST',
      '/api/uploads',
      {},
      {
        headers: { ...TUS, 'Upload-Length': String(size), 'Upload-Metadata': `userRef ${base64(userRef)}` },
      },
    );
    if (created.status !== 201) throw await errorOf(created);
    const id = created.headers.get('Location')!.split('/').pop()!;
    const path = `/api/uploads/${id}`;
    let offset = 0;
    let lastFailure: unknown;
    for (let failures = 0; offset < size; ) {
      try {
        const response =
          failures === 0
            ? await this.send(
                'PATCH',
                path,
                {},
                {
                  body: file.slice(offset, Math.min(size, offset + partBytes)),
                  headers: {
                    ...TUS,
                    'Content-Type': 'application/offset+octet-stream',
                    'Upload-Offset': String(offset),
                  },
                },
              )
            : await this.send('HEAD', path, {}, { headers: TUS });
        if (response.ok) {
          offset = Number(response.headers.get('Upload-Offset'));
          failures = 0;
          continue;
        }
        // A refusal stands; a server error or an offset the server does not have is asked about.
        if (response.status < 500 && response.status !== 409) throw await errorOf(response);
        lastFailure = await errorOf(response);
      } catch (error) {
        if (error instanceof ParleyError) throw error;
        lastFailure = error;
      }
      if (++failures >= PART_ATTEMPTS) throw lastFailure;
      await sleep(2 ** failures / 4);
    }
    return id;
  }

  /** Deletes a user (their connections and conversations) or one connection, for good. */
  purge(target: { userRef: string } | { connectionId: string }): Promise<PurgeResult> {
    return this.request('POST', '/api/purge', {}, { body: JSON.stringify(target), contentType: 'application/json' });
  }

  /**
   * A short-lived token for your assistant to read one user's data over Parley's
   * MCP server (`/mcp`), read-only: mint one per user session and hand it to the
   * agent, never to a browser. Lasts `expiresInSeconds` (at most 3600, 900 by default).
   */
  createAgentToken(userRef: string, { expiresInSeconds }: { expiresInSeconds?: number } = {}): Promise<AgentToken> {
    return this.request(
      'POST',
      '/api/agent-tokens',
      {},
      { body: JSON.stringify({ userRef, expiresInSeconds }), contentType: 'application/json' },
    );
  }

  private listing<Page>(
    connectionId: string,
    { limit, offset, updatedSince, q }: ConversationsQuery & { offset?: number },
    fields?: 'summary',
  ): Promise<Page> {
    return this.request('GET', '/api/conversations', {
      connectionId,
      limit,
      offset,
      updatedSince: instant(updatedSince),
      q,
      fields,
    });
  }

  private async waitingOutRateLimit<T>(call: () => Promise<T>): Promise<T> {
    for (let waits = 0; ; waits++) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof ParleyError) || error.status !== 429 || waits >= this.maxRateLimitWaits) throw error;
        await sleep(error.retryAfter ?? 1);
      }
    }
  }

  private async request<T>(
    method: 'GET' | 'POST',
    path: string,
    query: Query,
    { body, contentType }: { body?: BodyInit | Uint8Array; contentType?: string } = {},
  ): Promise<T> {
    const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
    const response = await this.send(method, path, query, { body, headers });
    if (!response.ok) throw await errorOf(response);
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ParleyError(response.status, `Parley answered ${response.status} with a body that is not JSON`);
    }
  }

  private send(
    method: 'GET' | 'POST' | 'PATCH' | 'HEAD',
    path: string,
    query: Query,
    { body, headers }: { body?: BodyInit | Uint8Array | undefined; headers: Record<string, string> },
  ): Promise<Response> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query))
      for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value])
        url.searchParams.append(name, String(each));
    // A stream goes out as it is read: fetch wants to be told it may start sending before the answer.
    const streamed = typeof ReadableStream !== 'undefined' && body instanceof ReadableStream;
    return this.fetch(url, {
      method,
      headers: { Authorization: `Bearer ${this.apiKey}`, ...headers },
      body: body as BodyInit | undefined,
      ...(streamed ? { duplex: 'half' } : {}),
    } as RequestInit);
  }
}

/** A request's query parameters: one named with a list is repeated. */
type Query = Record<string, string | number | string[] | undefined>;

/** A refusal as a ParleyError: the interface's message where the body is `{"error"}`, else the status. */
async function errorOf(response: Response): Promise<ParleyError> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await response.text());
  } catch {
    parsed = undefined;
  }
  const message =
    typeof (parsed as { error?: unknown } | undefined)?.error === 'string'
      ? (parsed as { error: string }).error
      : `HTTP ${response.status}`;
  const retryAfter = Number(response.headers.get('Retry-After') ?? Number.NaN);
  return new ParleyError(response.status, message, Number.isFinite(retryAfter) ? retryAfter : undefined);
}
