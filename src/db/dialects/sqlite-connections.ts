import {
  CompiledQuery,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';

/**
 * A SQLite file through two connections, so that no read waits behind a write.
 * kysely's own driver has one connection, held by a transaction until it ends:
 * every query of every request queued behind an import's final transaction.
 * Here transactions, and statements that write, take the writing connection,
 * one at a time; a SELECT outside a transaction takes the reading connection at
 * once. In WAL mode it reads the last committed state: never half of a
 * transaction still under way, so an import or a purge is all or nothing for
 * readers while its transaction lets them in between its statements (see
 * `nextTurn`).
 */
export class TwoConnectionDialect extends SqliteDialect {
  constructor(
    private readonly writer: SqliteDatabase,
    private readonly reader: SqliteDatabase,
  ) {
    super({ database: writer });
  }

  override createDriver(): Driver {
    return new TwoConnectionDriver(this.writer, this.reader);
  }
}

/** Statements naming these stay on the writing connection: its TEMP tables (see sqlite-temp-tables.ts) exist there only. */
const TEMP_TABLES = /\bimport_(staging|records)\b/;
const BEGINS = /^\s*begin\b/i;
const ENDS = /^\s*(commit|rollback|end)\b/i;
const READS = /^\s*select\b/i;

class TwoConnectionDriver implements Driver {
  private readonly writing = new Mutex();

  constructor(
    private readonly writer: SqliteDatabase,
    private readonly reader: SqliteDatabase,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this.writer, this.reader, this.writing);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    this.reader.close();
    this.writer.close();
  }
}

/** One user of the pair: a transaction it begins holds the writing connection until it ends. */
class RoutedConnection implements DatabaseConnection {
  private inTransaction = false;

  constructor(
    private readonly writer: SqliteDatabase,
    private readonly reader: SqliteDatabase,
    private readonly writing: Mutex,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { sql } = query;
    if (this.inTransaction) {
      try {
        return run<R>(this.writer, query);
      } finally {
        if (ENDS.test(sql)) this.endTransaction();
      }
    }
    if (READS.test(sql) && !TEMP_TABLES.test(sql)) return run<R>(this.reader, query);
    await this.writing.lock();
    if (!BEGINS.test(sql)) {
      try {
        return run<R>(this.writer, query);
      } finally {
        this.writing.unlock();
      }
    }
    try {
      const result = run<R>(this.writer, query);
      this.inTransaction = true;
      return result;
    } catch (error) {
      this.writing.unlock();
      throw error;
    }
  }

  streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error('streaming queries are not used with SQLite');
  }

  private endTransaction(): void {
    this.inTransaction = false;
    this.writing.unlock();
  }
}

/** What kysely's SQLite driver does with one statement. */
function run<R>(database: SqliteDatabase, { sql, parameters }: CompiledQuery): QueryResult<R> {
  const statement = database.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return {
    numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
    insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
    rows: [],
  };
}

/** Waiters take the lock in turn. */
class Mutex {
  private held: Promise<void> | undefined;
  private release: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.held) await this.held;
    this.held = new Promise((resolve) => (this.release = resolve));
  }

  unlock(): void {
    const release = this.release;
    this.held = undefined;
    this.release = undefined;
    release?.();
  }
}
