import type { LogLevel } from './config.ts';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

/** JSON lines, one per event. Callers pass only non-secret fields. */
export function createLogger(level: LogLevel, write: (line: string) => void = (line) => console.log(line)): Logger {
  const at =
    (lineLevel: Exclude<LogLevel, 'silent'>) =>
    (event: string, fields: LogFields = {}) => {
      if (RANK[lineLevel] < RANK[level]) return;
      write(JSON.stringify({ time: new Date().toISOString(), level: lineLevel, event, ...fields }));
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
