import { Facts, Layout } from './layout.tsx';
import { PROVIDER_GUIDES, providerGuide, providerName } from './providers.ts';

export function ConnectStartPage({ appName, token }: { appName: string; token: string }) {
  return (
    <Layout title="Import your conversations" appName={appName}>
      <section class="card" aria-labelledby="start-title">
        <h1 id="start-title">{appName} would like to import your AI conversations</h1>
        <p>You can bring in your chat history from {new Intl.ListFormat('en', { type: 'disjunction' }).format(PROVIDER_GUIDES.map((guide) => guide.name))}. Here is what happens:</p>
        <ol class="steps">
          <li>You pick the service and download your data export from it.</li>
          <li>You upload that file here. Parley reads your conversations from it.</li>
          <li>{appName} can then read those conversations. You can review and delete them at any time.</li>
        </ol>
        <form method="post" action="/start">
          <input type="hidden" name="token" value={token} />
          <button type="submit" class="button">Continue</button>
        </form>
        <p class="muted small">This link works once and for a few minutes only.</p>
      </section>
    </Layout>
  );
}

export function ChooseProviderPage({ appName }: { appName: string }) {
  return (
    <Layout title="Choose a service" appName={appName}>
      <section class="card" aria-labelledby="choose-title">
        <h1 id="choose-title">Where are your conversations?</h1>
        <ul class="choices">
          {PROVIDER_GUIDES.map((guide) => (
            <li key={guide.id}>
              <a class="choice" href={`/connect/${guide.id}`}>
                <strong>{guide.name}</strong>
                <span>{guide.site}</span>
              </a>
            </li>
          ))}
        </ul>
      </section>
    </Layout>
  );
}

export function UploadPage({ appName, provider, csrfToken, maxBytes }: { appName: string; provider: string; csrfToken: string; maxBytes: number }) {
  const guide = providerGuide(provider)!;
  const name = guide.name;
  return (
    <Layout title={`Import from ${name}`} appName={appName} withUploadScript>
      <p class="back">
        <a href="/connect">← Choose another service</a>
      </p>
      <section class="card" aria-labelledby="upload-title">
        <h1 id="upload-title">Import from {name}</h1>
        <h2>1. Get your export</h2>
        <ol class="steps">
          {guide.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p class="muted small">
          Waiting for the export? You can close this page: when the file is ready, start the import again from {appName}.
        </p>
        <h2>2. Upload it</h2>
        <form method="post" action={`/connect/${provider}`} enctype="multipart/form-data" class="upload" data-max-bytes={String(maxBytes)}>
          <input type="hidden" name="csrf" value={csrfToken} />
          <label for="file">Export file ({guide.files})</label>
          <p class="muted small hint" id="file-hint">
            Up to {formatBytes(maxBytes)}.
          </p>
          <input id="file" name="file" type="file" accept={guide.accept} required aria-describedby="file-hint" />
          <button type="submit" class="button">Upload and import</button>
          <div class="progress" hidden>
            <label for="upload-progress">Uploading…</label>
            <progress id="upload-progress" max="100" value="0" />
            <p class="muted small" aria-live="polite" data-progress-text />
          </div>
          <p class="form-error" role="alert" hidden data-upload-error />
        </form>
      </section>
    </Layout>
  );
}

export interface ImportOutcome {
  provider: string;
  ok: boolean;
  created?: number;
  updated?: number;
  unchanged?: number;
  skipped?: number;
  conversationCount?: number;
  message?: string;
  advice?: string;
}

export function ImportResultPage({ appName, outcome }: { appName: string; outcome: ImportOutcome }) {
  const name = providerName(outcome.provider);
  if (!outcome.ok) {
    return (
      <Layout title="Import failed" appName={appName}>
        <section class="card error" aria-labelledby="result-title">
          <h1 id="result-title">The import did not work</h1>
          <p>
            <strong>{outcome.message}</strong>
          </p>
          <p>{outcome.advice}</p>
          <p class="actions">
            <a class="button" href={`/connect/${outcome.provider}`}>
              Try again
            </a>
            <a class="button secondary" href="/connect">
              Choose another service
            </a>
          </p>
        </section>
      </Layout>
    );
  }
  const changed = (outcome.created ?? 0) + (outcome.updated ?? 0);
  return (
    <Layout title="Import complete" appName={appName}>
      <section class="card success" aria-labelledby="result-title">
        <h1 id="result-title">Your {name} conversations are in</h1>
        <p class="big">
          {outcome.conversationCount === 1 ? `1 conversation from ${name} is` : `${outcome.conversationCount} conversations from ${name} are`} now available to{' '}
          {appName}.
        </p>
        <Facts
          kind="counts"
          facts={[
            ['New', outcome.created],
            ['Updated', outcome.updated],
            ['Unchanged', outcome.unchanged],
            ['Skipped', outcome.skipped],
          ]}
        />
        {changed === 0 && <p class="muted">Nothing new in this file: everything in it was already imported.</p>}
        <p>You can close this page now, or upload a newer export later.</p>
        <p>
          <a class="button secondary" href={`/connect/${outcome.provider}`}>
            Upload another file
          </a>
        </p>
      </section>
    </Layout>
  );
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}
