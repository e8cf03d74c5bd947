import assert from 'node:assert/strict';
import { signLink } from 'parley-sdk';
import { NAVIGATION, type TestContext } from '../helpers.ts';

/**
 * A minimal browser over app.request: keeps cookies, follows nothing by itself,
 * and pulls values out of the HTML it gets.
 */
export class PageClient {
  private cookies = new Map<string, string>();

  constructor(private readonly t: TestContext) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('Cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await this.t.app.request(path, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** A person's navigation to `path`, as a browser marks it. */
  get(path: string) {
    return this.request(path, { headers: NAVIGATION });
  }

  post(path: string, fields: Record<string, string>) {
    return this.request(path, { method: 'POST', body: new URLSearchParams(fields) });
  }

  cookie(name: string) {
    return this.cookies.get(name);
  }
}

/** The value of the hidden input `name` in a page. */
export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`no hidden field ${name} in page`);
  return match[1]!.replace(/&amp;/g, '&');
}

/** A signed link to the page of `purpose`, as the app makes one now. */
export async function pageLink(
  t: TestContext,
  purpose: 'connect' | 'manage',
  userRef = 'u1',
  appId = t.tenant.appId,
  secret = t.tenant.appSecret,
  locale?: string,
) {
  return new URL(
    await signLink(
      {
        appId,
        userRef,
        scopes: ['conversations:read'],
        purpose,
        baseUrl: t.deps.config.publicUrl,
        ...(locale === undefined ? {} : { locale }),
      },
      secret,
      t.clock.now(),
    ),
  );
}

/** A browser in a page session of `purpose`, opened the way a person does: through a signed link. */
export async function openSession(...link: Parameters<typeof pageLink>) {
  const [t, purpose] = link;
  const url = await pageLink(...link);
  const browser = new PageClient(t);
  const response =
    purpose === 'connect'
      ? await browser.post('/start', { token: url.searchParams.get('token')! })
      : await browser.get(url.pathname + url.search);
  assert.equal(response.status, 303);
  return browser;
}
