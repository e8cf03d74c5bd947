// The part of `node:sqlite` that node-sqlite.ts and the Deno checkpoint worker use. Deno provides the module;
// the Node 20 type definitions this project builds against predate it.
declare module 'node:sqlite' {
  type Value = null | number | bigint | string | Uint8Array;
  export class StatementSync {
    all(...parameters: Value[]): unknown[];
    get(...parameters: Value[]): unknown;
    run(...parameters: Value[]): { changes: number | bigint; lastInsertRowid: number | bigint };
    iterate(...parameters: Value[]): IterableIterator<unknown>;
    columns(): Array<{ name: string }>;
  }
  export class DatabaseSync {
    constructor(path: string);
    exec(sql: string): void;
    prepare(sql: string): StatementSync;
    close(): void;
  }
}
