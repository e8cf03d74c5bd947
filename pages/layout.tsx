import type { ComponentChildren } from 'preact';

export interface LayoutProps {
  title: string;
  /** The customer's app the page acts for, when known. */
  appName?: string | undefined;
  /** Loads the upload progress script (the only script Parley serves). */
  withUploadScript?: boolean;
  children: ComponentChildren;
}

export function Layout({ title, appName, withUploadScript, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{`${title} · Parley`}</title>
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/parley.css" />
        {withUploadScript && <script src="/assets/upload.js" defer />}
      </head>
      <body>
        <header class="site">
          <span class="brand">Parley</span>
          {appName && <span class="for-app">for {appName}</span>}
        </header>
        <main>{children}</main>
        <footer class="site">Your conversations are stored for {appName ?? 'the app you came from'} and only shown to you and to it.</footer>
      </body>
    </html>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as `2026-03-01 12:00 UTC`: the same on the server for every reader. */
export function Time({ iso }: { iso: string | null }) {
  if (!iso) return <span class="muted">unknown</span>;
  const d = new Date(iso);
  const text = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
  return <time dateTime={iso}>{text}</time>;
}

/** Labelled figures, as a description list of term/value pairs. */
export function Facts({ kind, facts }: { kind: 'facts' | 'counts'; facts: Array<[string, ComponentChildren]> }) {
  return (
    <dl class={kind}>
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
