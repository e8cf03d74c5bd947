import { canonicalLocale } from 'parley-sdk/sign-link';
import { de } from './de.ts';
import { en, type Messages } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { ja } from './ja.ts';
import { zhCN } from './zh-CN.ts';

/** The languages the hosted pages speak, by the tag `<html lang>` carries. */
export const CATALOGUES = { en, de, fr, es, ja, 'zh-CN': zhCN } satisfies Record<string, Messages>;
export type Locale = keyof typeof CATALOGUES;
export const DEFAULT_LOCALE: Locale = 'en';

/**
 * The supported language a BCP 47 tag asks for, or undefined: a region or script
 * does not matter (`de-AT` → `de`) except for Chinese, where only Simplified is
 * spoken here (`zh`, `zh-CN`, `zh-Hans`, `zh-SG` → `zh-CN`; `zh-TW`, `zh-Hant` → none).
 */
export function supportedLocale(tag: string | undefined): Locale | undefined {
  const canonical = tag === undefined ? undefined : canonicalLocale(tag);
  if (!canonical) return undefined;
  const locale = new Intl.Locale(canonical);
  if (locale.language === 'zh') {
    const script = locale.script ?? (locale.region && ['TW', 'HK', 'MO'].includes(locale.region) ? 'Hant' : 'Hans');
    return script === 'Hans' ? 'zh-CN' : undefined;
  }
  return locale.language in CATALOGUES ? (locale.language as Locale) : undefined;
}

/**
 * The best supported language of an Accept-Language header: by q-value, highest
 * first (ties in the header's order), `q=0` meaning "not this"; English when none fits.
 */
export function negotiateLocale(acceptLanguage: string | undefined): Locale {
  const ranges = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params
        .map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(param)?.[1])
        .find((value) => value !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, q }) => tag !== '' && tag !== '*' && q > 0 && q <= 1)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    const locale = supportedLocale(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

export const messagesFor = (locale: Locale): Messages => CATALOGUES[locale];
