import type { Context } from 'hono';
import type { Deps } from '../deps.ts';
import { BODY_LIMITS, readBoundedBody } from '../http/request-body.ts';

/**
 * The posted form's text fields, from a body of at most BODY_LIMITS.pageForm
 * (413 past it, before anything the form says is checked: its link is in it).
 * A body that is not a form reads as an empty one, so the checks that follow
 * refuse it (no link, no CSRF token) instead of a 500.
 */
export async function postedForm(deps: Deps, c: Context): Promise<Record<string, string>> {
  const bytes = await readBoundedBody(c.req.raw, BODY_LIMITS.pageForm, deps.config.bodyTimeoutMs);
  try {
    const form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'Content-Type': c.req.header('Content-Type') ?? '' },
    }).formData();
    return Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}
