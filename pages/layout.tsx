import type { ComponentChildren } from 'preact';
import { useMessages } from './i18n/messages-context.ts';

export interface LayoutProps {
  title: string;
  /** The customer's app the page acts for, when known. */
  appName?: string | undefined;
  /** Loads the upload form's script too. */
  withUploadScript?: boolean;
  children: ComponentChildren;
}

export function Layout({ title, appName, withUploadScript, children }: LayoutProps) {
  const t = useMessages();
  return (
    <html lang={t.locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{`${title} · Parley`}</title>
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/parley.css" />
        <script src="/assets/page.js" defer />
        {withUploadScript && <script src="/assets/upload.js" defer />}
      </head>
      <body>
        <header class="site">
          <span class="brand">Parley</span>
          {appName && <span class="for-app">{t.forApp({ app: appName })}</span>}
        </header>
        <main>{children}</main>
        <footer class="site">{t.footer({ app: appName ?? t.theAppYouCameFrom })}</footer>
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
