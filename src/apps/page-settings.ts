import { isReturnUrl } from 'parley-sdk/sign-link';
import * as store from '../db/apps.ts';
import type { AppLogosTable, AppsTable } from '../db/database.ts';
import { isoTime, type Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { requireApp } from './apps.ts';
import { imageSize, type ImageType } from './image-size.ts';

// What the hosted pages show of an app (its brand) and where they may send the
// person back to (its return origins), as `app update` sets them.

export const MAX_LOGO_BYTES = 256 * 1024;
/** A logo may be at most this many times as wide as tall, or as tall as wide: longer ones shrink to a smudge in the header. */
const MAX_LOGO_ASPECT = 4;
const MAX_DISPLAY_NAME_LENGTH = 100;
/** WCAG 2 AA for normal text: the accent colour carries white button labels and links on white. */
const MIN_CONTRAST_ON_WHITE = 4.5;
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * An origin a returnUrl may point at, as `https://host[:port]`: https, or http
 * for a loopback host (a developer's machine); no path, query, fragment or
 * credentials, so that what is registered is exactly an origin.
 */
export function returnOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ParleyError('invalidReturnOrigin');
  }
  const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname));
  const bare =
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === '' &&
    !/[?#]/.test(text);
  if (!scheme || !bare) throw new ParleyError('invalidReturnOrigin');
  return url.origin;
}

/** The relative luminance of an sRGB colour `#rrggbb` (WCAG 2). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of `#rrggbb` against white. */
export const contrastOnWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

function accentColor(text: string): string {
  if (!/^#[0-9a-f]{6}$/i.test(text)) throw new ParleyError('invalidAccentColor');
  const color = text.toLowerCase();
  const contrast = contrastOnWhite(color);
  if (contrast < MIN_CONTRAST_ON_WHITE) {
    // Rounded down, so that a colour just short of 4.5:1 never reads as 4.50:1.
    const shown = (Math.floor(contrast * 100) / 100).toFixed(2);
    throw new ParleyError('accentColorTooLight', {
      detail: `${color} has ${shown}:1 against white, WCAG AA needs ${MIN_CONTRAST_ON_WHITE}:1; choose a darker color`,
    });
  }
  return color;
}

function displayName(text: string): string {
  const name = text.trim();
  if (name === '' || [...name].length > MAX_DISPLAY_NAME_LENGTH || /\p{Cc}/u.test(name))
    throw new ParleyError('invalidDisplayName');
  return name;
}

function privacyUrl(text: string): string {
  if (!isReturnUrl(text)) throw new ParleyError('invalidPrivacyUrl');
  return new URL(text).href;
}

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) => prefix.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/**
 * The image type of a logo, by its first bytes (never by its name). SVG is
 * refused: an SVG is a document that can carry scripts and outside references,
 * opened on Parley's origin if someone visits its URL; sanitising it needs a DOM
 * and a sanitiser's whole rule set on the server, while a PNG of the same logo
 * is a few kilobytes.
 */
function logoType(bytes: Uint8Array): ImageType {
  if (startsWith(bytes, [0x89, ...ascii('PNG\r\n\x1a\n')])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  const head = new TextDecoder().decode(bytes.subarray(0, 1024));
  if (/<svg[\s>]/i.test(head))
    throw new ParleyError('invalidLogo', { detail: 'SVG is not accepted; export the logo as PNG' });
  throw new ParleyError('invalidLogo');
}

/** Checks a logo's shape by the size its header gives: refused when it cannot be read, or is longer than MAX_LOGO_ASPECT either way. */
function checkLogoShape(bytes: Uint8Array, type: ImageType): void {
  const size = imageSize(bytes, type);
  if (!size)
    throw new ParleyError('invalidLogo', {
      detail: 'its width and height cannot be read (a damaged file?); export it again',
    });
  const { width, height } = size;
  const shape = `${width}×${height}`;
  if (height > width * MAX_LOGO_ASPECT)
    throw new ParleyError('invalidLogo', {
      detail: `${shape} is taller than ${MAX_LOGO_ASPECT}:1; crop it to at most ${MAX_LOGO_ASPECT} times as tall as wide`,
    });
  if (width > height * MAX_LOGO_ASPECT)
    throw new ParleyError('invalidLogo', {
      detail: `${shape} is wider than ${MAX_LOGO_ASPECT}:1; crop it to at most ${MAX_LOGO_ASPECT} times as wide as tall`,
    });
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** What `app update` may change; a field left out stays as it is, `null` removes it. */
export interface AppPageChanges {
  displayName?: string | null;
  accentColor?: string | null;
  privacyUrl?: string | null;
  /** The image file's bytes. */
  logo?: Uint8Array | null;
  /** The whole list: replaces the registered origins. */
  returnOrigins?: readonly string[];
}

/** What the pages show of the app and where they may return to, as `app update` prints it. */
export async function appPageSettings(deps: Pick<Deps, 'db'>, appId: string) {
  const app = await requireApp(deps, appId);
  const logo = await store.findAppLogo(deps.db, appId);
  return {
    appId,
    name: app.name,
    displayName: app.display_name,
    accentColor: app.accent_color,
    privacyUrl: app.privacy_url,
    logo: logo ? { contentType: logo.content_type, bytes: logo.bytes.byteLength, sha256: logo.sha256 } : null,
    returnOrigins: await store.listReturnOrigins(deps.db, appId),
  };
}

/** Checks every change first, then saves them together: a bad one changes nothing. */
export async function updateAppPageSettings(deps: Pick<Deps, 'db' | 'clock'>, appId: string, changes: AppPageChanges) {
  await requireApp(deps, appId);
  const brand: Partial<Pick<AppsTable, 'display_name' | 'accent_color' | 'privacy_url'>> = {};
  if (changes.displayName !== undefined)
    brand.display_name = changes.displayName === null ? null : displayName(changes.displayName);
  if (changes.accentColor !== undefined)
    brand.accent_color = changes.accentColor === null ? null : accentColor(changes.accentColor);
  if (changes.privacyUrl !== undefined)
    brand.privacy_url = changes.privacyUrl === null ? null : privacyUrl(changes.privacyUrl);
  let logo: AppLogosTable | null | undefined;
  if (changes.logo === null) logo = null;
  else if (changes.logo !== undefined) {
    if (changes.logo.byteLength > MAX_LOGO_BYTES) throw new ParleyError('logoTooLarge');
    const bytes = changes.logo;
    const contentType = logoType(bytes);
    checkLogoShape(bytes, contentType);
    logo = {
      app_id: appId,
      content_type: contentType,
      bytes,
      sha256: hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))),
      updated_at: isoTime(deps.clock.now()),
    };
  }
  const returnOrigins = changes.returnOrigins && [...new Set(changes.returnOrigins.map(returnOrigin))];
  await store.saveAppPageSettings(deps.db, appId, {
    brand,
    ...(logo !== undefined ? { logo } : {}),
    ...(returnOrigins ? { returnOrigins } : {}),
  });
  return appPageSettings(deps, appId);
}

/** `url` if it is a returnUrl whose origin the app registered; undefined otherwise. */
export async function registeredReturnUrl(
  deps: Pick<Deps, 'db'>,
  appId: string,
  url: string | null | undefined,
): Promise<string | undefined> {
  if (!isReturnUrl(url)) return undefined;
  return (await store.isReturnOrigin(deps.db, appId, new URL(url).origin)) ? url : undefined;
}

/** What a hosted page shows of its app: the name it leads with, and its logo, accent colour and privacy policy when set. */
export interface PageBrand {
  name: string;
  /** A URL on Parley itself, versioned by the image's hash. */
  logoUrl?: string;
  /** `#rrggbb`, at least 4.5:1 on white. */
  accentColor?: string;
  privacyUrl?: string;
}

export async function pageBrand(deps: Pick<Deps, 'db'>, appId: string): Promise<PageBrand> {
  const app = await store.findAppBrand(deps.db, appId);
  if (!app) throw new ParleyError('appNotFound');
  const brand: PageBrand = { name: app.display_name ?? app.name };
  if (app.logo_sha256) brand.logoUrl = `/brand/${encodeURIComponent(app.id)}/logo?v=${app.logo_sha256.slice(0, 16)}`;
  if (app.accent_color) brand.accentColor = app.accent_color;
  if (app.privacy_url) brand.privacyUrl = app.privacy_url;
  return brand;
}

/** The app's logo as Parley serves it, or undefined when it has none. */
export async function appLogo(deps: Pick<Deps, 'db'>, appId: string) {
  const logo = await store.findAppLogo(deps.db, appId);
  return logo && { contentType: logo.content_type, bytes: logo.bytes, version: logo.sha256.slice(0, 16) };
}
