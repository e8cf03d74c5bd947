/**
 * Locale-aware pieces the catalogues build their sentences from. The Intl
 * objects are made once per catalogue: making one is slow next to using it, and
 * a long conversation's page writes a time for every message.
 */
export function formatters(locale: string) {
  const numbers = new Intl.NumberFormat(locale);
  const plurals = new Intl.PluralRules(locale);
  const alternatives = new Intl.ListFormat(locale, { type: 'disjunction' });
  const units = Object.fromEntries(
    (['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const).map((unit) => [
      unit,
      new Intl.NumberFormat(locale, {
        style: 'unit',
        unit,
        maximumFractionDigits: unit === 'gigabyte' ? 1 : 0,
        // "512 bytes": the short form of a byte is "512 byte" in English.
        unitDisplay: unit === 'byte' ? 'long' : 'short',
      }),
    ]),
  ) as Record<'byte' | 'kilobyte' | 'megabyte' | 'gigabyte', Intl.NumberFormat>;
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  const times = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
    timeZoneName: 'short',
  });
  return {
    number: (n: number) => numbers.format(n),
    /** The form for `n`'s plural category, with `#` as `n` formatted: `counted(2, { one: '# file', other: '# files' })`. */
    counted: (n: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }) =>
      (forms[plurals.select(n)] ?? forms.other).replace('#', numbers.format(n)),
    or: (items: readonly string[]) => alternatives.format(items),
    bytes: (bytes: number) => {
      const [unit, size] =
        bytes >= 1024 ** 3
          ? (['gigabyte', bytes / 1024 ** 3] as const)
          : bytes >= 1024 ** 2
            ? (['megabyte', bytes / 1024 ** 2] as const)
            : bytes >= 1024
              ? (['kilobyte', bytes / 1024] as const)
              : (['byte', bytes] as const);
      return units[unit].format(size);
    },
    /** A time in UTC, the same on the server for every reader, written the locale's way. */
    dateTime: (date: Date) => times.format(date),
    /** How long before `now` a time was, in the largest whole unit: "now" (under a minute), "5 min. ago", "yesterday". */
    ago: (date: Date, now: number) => {
      const seconds = Math.max(0, (now - date.getTime()) / 1000);
      if (seconds < 60) return relative.format(0, 'second');
      const [value, unit] = RELATIVE_UNITS.find(([, , below]) => seconds < below) ?? RELATIVE_UNITS.at(-1)!;
      return relative.format(-Math.floor(seconds / value), unit);
    },
  };
}

/** Seconds in each unit, and below how many seconds a time is said in it. */
const RELATIVE_UNITS: ReadonlyArray<readonly [number, Intl.RelativeTimeFormatUnit, number]> = [
  [60, 'minute', 3_600],
  [3_600, 'hour', 86_400],
  [86_400, 'day', 30 * 86_400],
  [30 * 86_400, 'month', 365 * 86_400],
  [365 * 86_400, 'year', Infinity],
];

/** What every catalogue carries besides its sentences: its tag and how it writes times, numbers, sizes and alternatives. */
export function localeBasics(locale: string) {
  const { dateTime, number, bytes, or, ago } = formatters(locale);
  return { locale, dateTime, number, bytes, or, ago };
}

const ISO_LIKE = new Intl.DateTimeFormat('en', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** `2026-03-01 12:00 UTC`: English pages keep the unambiguous form they always had. */
export function isoLikeDateTime(date: Date): string {
  const parts = ISO_LIKE.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} UTC`;
}
