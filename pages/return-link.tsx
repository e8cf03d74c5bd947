import { useMessages } from './i18n/messages-context.ts';
import { usePageFrame, type ReturnStatus } from './page-frame.ts';

/**
 * "Return to <app>": the link's returnUrl with `parley_status` (and the
 * connection's id) added; nothing when the link gave no way back. Its data
 * attributes are for /assets/return.js, which tells a window.open() opener
 * too, on the registered origin only. With `announce` the script tells the
 * opener as soon as the page loads: the page is an outcome (a result, an error).
 */
export function ReturnLink({
  status,
  connectionId,
  button,
  announce,
}: {
  status: ReturnStatus;
  connectionId?: string | undefined;
  button?: boolean;
  announce?: boolean;
}) {
  const t = useMessages();
  const { brand, returnUrl } = usePageFrame();
  if (!returnUrl || !brand) return null;
  const href = new URL(returnUrl);
  href.searchParams.set('parley_status', status);
  if (connectionId) href.searchParams.set('connectionId', connectionId);
  return (
    <a
      class={button ? 'button' : 'return-link'}
      href={href.href}
      data-parley-status={status}
      data-parley-connection-id={connectionId}
      data-parley-origin={href.origin}
      data-parley-announce={announce ? '' : undefined}
    >
      {t.returnTo({ app: brand.name })}
    </a>
  );
}
