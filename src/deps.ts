import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Logger } from './log.ts';

/** Milliseconds since the epoch; tests pass a clock they move by hand. */
export interface Clock {
  now(): number;
}

export interface Random {
  bytes(length: number): Uint8Array;
  uuid(): string;
}

/** Everything the app is built from: nothing below the entry files reaches past these. */
export interface Deps {
  db: Db;
  config: Config;
  clock: Clock;
  random: Random;
  log: Logger;
}

export const systemClock: Clock = { now: () => Date.now() };

export const cryptoRandom: Random = {
  bytes: (length) => crypto.getRandomValues(new Uint8Array(length)),
  uuid: () => crypto.randomUUID(),
};

export const isoTime = (ms: number): string => new Date(ms).toISOString();
