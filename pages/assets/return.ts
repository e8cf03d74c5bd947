/**
 * The way back to the app (pages/return-link.tsx), for a page opened with
 * window.open(): it tells the opener `{type: 'parley', status, connectionId}`,
 * posted to the returnUrl's origin only (an origin the app registered), when an
 * outcome page loads and when the person clicks "Return to …" (the popup then
 * closes itself). Without an opener the link is followed as usual.
 */
interface ReturnMessage {
  type: 'parley';
  status: string | null;
  connectionId?: string;
}

const opener: Window | null = window.opener;

function tell(link: HTMLAnchorElement): boolean {
  if (!opener || opener.closed) return false;
  const message: ReturnMessage = { type: 'parley', status: link.getAttribute('data-parley-status') };
  const connectionId = link.getAttribute('data-parley-connection-id');
  if (connectionId) message.connectionId = connectionId;
  opener.postMessage(message, link.getAttribute('data-parley-origin')!);
  return true;
}

for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-parley-status]')) {
  if (link.hasAttribute('data-parley-announce')) tell(link);
  link.addEventListener('click', (event) => {
    if (!tell(link)) return;
    event.preventDefault();
    window.close();
    // A window the browser will not let a script close follows the link instead.
    if (!window.closed) window.location.assign(link.href);
  });
}
