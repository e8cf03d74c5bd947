/** A clock that moves forward (or back), and the time formats the providers write. */

/** Conversations of the first two shapes start here (2024-03-01T00:00:00Z) and move forward. */
export const START_SECONDS = 1709251200;

/** Microseconds since the epoch, moving forward (or, with a negative step, back). */
export class Clock {
  us: number;
  constructor(startSeconds: number) {
    this.us = startSeconds * 1e6;
  }
  advance(seconds: number): number {
    this.us += Math.max(1, Math.round(seconds * 1e6));
    return this.us;
  }
  rewind(seconds: number): number {
    this.us -= Math.max(1, Math.round(seconds * 1e6));
    return this.us;
  }
}

/** ChatGPT's float unix seconds, microsecond precision. */
export const unixSeconds = (us: number) => Math.round(us) / 1e6;

/** Claude's ISO strings with microseconds: 2025-10-01T18:42:27.303515Z */
let isoDay = -1;
let isoDayPrefix = '';
export function isoMicros(us: number): string {
  const whole = Math.round(us);
  const day = Math.floor(whole / 86_400_000_000);
  if (day !== isoDay) {
    isoDay = day;
    isoDayPrefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
  }
  const inDay = whole - day * 86_400_000_000;
  const seconds = Math.floor(inDay / 1_000_000);
  const hh = Math.floor(seconds / 3600);
  const mm = Math.floor(seconds / 60) % 60;
  const ss = seconds % 60;
  const micros = String(inDay % 1_000_000).padStart(6, '0');
  return `${isoDayPrefix}${hh < 10 ? '0' : ''}${hh}:${mm < 10 ? '0' : ''}${mm}:${ss < 10 ? '0' : ''}${ss}.${micros}Z`;
}

/** Milliseconds since the epoch, as the `$numberLong` strings and `Date`s use them. */
export const millis = (us: number) => Math.floor(us / 1000);

/** ISO UTC with milliseconds: 2025-09-02T18:45:00.000Z */
export const isoMillis = (us: number) => new Date(millis(us)).toISOString();

/**
 * Local time `offsetMinutes` east of UTC: 2025-03-30T04:49:36.505000+08:00 with
 * `digits` 6 (milliseconds, padded as DeepSeek pads them), 3 or 0; `zone` false
 * leaves the offset out (a local time without a zone, as in Copilot's CSV).
 */
export function isoLocal(us: number, offsetMinutes: number, digits: 0 | 3 | 6, zone = true): string {
  const local = new Date(millis(us) + offsetMinutes * 60_000).toISOString();
  const fraction = digits === 0 ? '' : digits === 3 ? local.slice(19, 23) : `${local.slice(19, 23)}000`;
  if (!zone) return local.slice(0, 19) + fraction;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local.slice(0, 19)}${fraction}${sign}${hh}:${mm}`;
}
