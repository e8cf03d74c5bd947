import type { ComponentChildren } from 'preact';
import { useMessages } from './i18n/messages-context.ts';
import { usePageFrame } from './page-frame.ts';
import { ReturnLink } from './return-link.tsx';

export interface LayoutProps {
  title: string;
  /** The customer's app the page acts for, when known. */
  appName?: string | undefined;
  /** Loads the upload form's script too. */
  withUploadScript?: boolean;
  /** The page offers the way back to the app itself (a result, an error), so the footer does not. */
  returnInPage?: boolean;
  children: ComponentChildren;
}

export function Layout({ title, appName, withUploadScript, returnInPage, children }: LayoutProps) {
  const t = useMessages();
  const { brand, returnUrl, returnStatus } = usePageFrame();
  return (
    <html lang={t.locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{`${title} · Parley`}</title>
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/parley.css" />
        {brand?.accentColor && <link rel="stylesheet" href={`/brand/accent/${brand.accentColor.slice(1)}.css`} />}
        <script src="/assets/page.js" defer />
        {withUploadScript && <script src="/assets/upload.js" defer />}
        {returnUrl && <script src="/assets/return.js" defer />}
      </head>
      <body>
        {/* The app leads: people know it, not Parley. The logo is decorative beside its name. */}
        <header class="site">
          {brand?.logoUrl && <img class="logo" src={brand.logoUrl} alt="" />}
          <span class="brand">{appName ?? brand?.name ?? 'Parley'}</span>
        </header>
        <main>{children}</main>
        {/* After main: the first Tab still lands in the page's content. */}
        <footer class="site">
          {!returnInPage && returnStatus && returnUrl && (
            <p>
              <ReturnLink status={returnStatus} />
            </p>
          )}
          <p>{t.footer({ app: appName ?? t.theAppYouCameFrom })}</p>
          <p class="secured">{t.securedBy}</p>
        </footer>
      </body>
    </html>
  );
}

/** A time in UTC, the same on the server for every reader, written the person's language's way; the page script says it in the browser's time zone. */
export function Time({ iso }: { iso: string | null }) {
  const t = useMessages();
  if (!iso) return <span class="muted">{t.unknownTime}</span>;
  return <time dateTime={iso}>{t.dateTime(new Date(iso))}</time>;
}

/** Labelled figures, as a description list of term/value pairs. */
export function Counts({ facts }: { facts: Array<[string, number | undefined]> }) {
  return (
    <dl class="counts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value === undefined ? null : <Count n={value} />}</dd>
        </div>
      ))}
    </dl>
  );
}

function Count({ n }: { n: number }) {
  return <>{useMessages().number(n)}</>;
}
