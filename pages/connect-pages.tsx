import { useMessages } from './i18n/messages-context.ts';
import { Counts, Layout } from './layout.tsx';
import { ReturnLink } from './return-link.tsx';
import type { ImportOutcome } from '../src/links/page-sessions.ts';
import { PROVIDER_GUIDES, providerGuide, providerName } from './providers.ts';

export function ConnectStartPage({
  appName,
  token,
  privacyPolicyUrl,
}: {
  appName: string;
  token: string;
  privacyPolicyUrl?: string | undefined;
}) {
  const t = useMessages();
  return (
    <Layout title={t.startTitle} appName={appName}>
      <section class="card" aria-labelledby="start-title">
        <h1 id="start-title">{t.startHeading({ app: appName })}</h1>
        <p>{t.startIntro({ services: t.or(PROVIDER_GUIDES.map((guide) => guide.name)) })}</p>
        <ol class="steps">
          {t.startSteps({ app: appName }).map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <form method="post" action="/start">
          <input type="hidden" name="token" value={token} />
          <button type="submit" class="button">
            {t.continue}
          </button>
        </form>
        <p class="muted small">{t.linkWorksOnce}</p>
      </section>
      <section class="card trust" aria-labelledby="trust-title">
        <h2 id="trust-title">{t.trustHeading}</h2>
        <dl>
          <dt>{t.trustWhatTerm}</dt>
          <dd>{t.trustWhat}</dd>
          <dt>{t.trustWhoTerm}</dt>
          <dd>{t.trustWho({ app: appName })}</dd>
          <dt>{t.trustDeleteTerm}</dt>
          <dd>{t.trustDelete({ app: appName })}</dd>
        </dl>
        {privacyPolicyUrl && (
          <p>
            {t.privacyPolicyIntro({ app: appName })}{' '}
            <a href={privacyPolicyUrl} rel="noopener noreferrer">
              {t.privacyPolicy({ app: appName })}
            </a>
          </p>
        )}
      </section>
    </Layout>
  );
}

export function ChooseProviderPage({ appName }: { appName: string }) {
  const t = useMessages();
  return (
    <Layout title={t.chooseTitle} appName={appName}>
      <section class="card" aria-labelledby="choose-title">
        <h1 id="choose-title">{t.chooseHeading}</h1>
        <ul class="choices">
          {PROVIDER_GUIDES.map((guide) => (
            <li key={guide.id}>
              <a class="choice" href={`/connect/${guide.id}`}>
                <strong>{guide.name}</strong>
                <span>{guide.site}</span>
              </a>
            </li>
          ))}
          <li>
            <a class="choice" href="/connect/not-listed">
              <strong>{t.notListed}</strong>
            </a>
          </li>
        </ul>
      </section>
    </Layout>
  );
}

/** The assistants Parley reads, by name. */
function ReadProviders() {
  const t = useMessages();
  return (
    <>
      <p>{t.parleyReads}</p>
      <ul class="read-providers">
        {PROVIDER_GUIDES.map((guide) => (
          <li key={guide.id}>{guide.name}</li>
        ))}
      </ul>
    </>
  );
}

/** For a person whose assistant is not offered: what Parley reads, and whom to tell. No file is taken. */
export function NotListedPage({ appName }: { appName: string }) {
  const t = useMessages();
  return (
    <Layout title={t.notListedTitle} appName={appName} returnInPage>
      <p class="back">
        <a href="/connect">← {t.chooseAnother}</a>
      </p>
      <section class="card" aria-labelledby="not-listed-title">
        <h1 id="not-listed-title">{t.notListedTitle}</h1>
        <ReadProviders />
        <p>{t.notListedAsk({ app: appName })}</p>
        <p class="actions">
          <a class="button secondary" href="/connect">
            {t.chooseAnother}
          </a>
          <ReturnLink status="cancelled" />
        </p>
      </section>
    </Layout>
  );
}

export function UploadPage({
  appName,
  provider,
  csrfToken,
  maxBytes,
  sessionHours,
}: {
  appName: string;
  provider: string;
  csrfToken: string;
  maxBytes: number;
  /** How long the session lasts (CONNECT_SESSION_HOURS), for a person who leaves to request their export. */
  sessionHours: number;
}) {
  const t = useMessages();
  const guide = providerGuide(provider)!;
  const name = guide.name;
  return (
    <Layout title={t.importFrom({ provider: name })} appName={appName} withUploadScript>
      <p class="back">
        <a href="/connect">← {t.chooseAnother}</a>
      </p>
      <section class="card" aria-labelledby="upload-title">
        <h1 id="upload-title">{t.importFrom({ provider: name })}</h1>
        <h2>{t.getExport}</h2>
        <ol class="steps">
          {t.providerSteps[guide.id].map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p class="muted small">{t.waitingForExport({ app: appName, hours: sessionHours })}</p>
        <h2>{t.uploadIt}</h2>
        {/* The upload script's words ride on the form: served as a file (no inline script), it reads them here. */}
        <form
          method="post"
          action={`/connect/${provider}`}
          enctype="multipart/form-data"
          class="upload"
          data-max-bytes={String(maxBytes)}
          data-text-too-large={t.script.tooLarge}
          data-text-progress={t.script.progress}
          data-text-reading={t.script.reading}
          data-text-refused={t.script.refused}
          data-text-interrupted={t.script.interrupted}
          data-text-busy={t.script.busy}
          data-text-starting={t.script.starting}
          data-text-resume={t.script.resume}
          data-text-reconnecting={t.script.reconnecting}
          data-uploads="/connect/uploads"
          data-provider={provider}
        >
          <input type="hidden" name="csrf" value={csrfToken} />
          {/* Before the file, so the import knows it as it reads; the upload script fills it in. */}
          <input type="hidden" name="timeZone" value="" />
          <div class="picker">
            <label for="file">{t.exportFile({ files: t.or(guide.extensions) })}</label>
            <p class="muted small hint" id="file-hint">
              {t.upTo({ size: t.bytes(maxBytes) })}
            </p>
            {/* The real file input lies over the whole zone, unseen: a tap or a drop anywhere on it goes to the input itself, with or without the script. */}
            <div class="dropzone">
              <input
                id="file"
                name="file"
                type="file"
                accept={guide.accept}
                multiple
                required
                aria-describedby="file-hint"
              />
              <span class="dropzone-text" aria-hidden="true">
                {t.dropZone}
              </span>
              <span class="dropzone-chosen" aria-hidden="true" data-chosen-file>
                {t.fileChosen}
              </span>
            </div>
            <button type="submit" class="button">
              {t.uploadAndImport}
            </button>
          </div>
          <div class="progress" hidden>
            <label for="upload-progress">{t.uploading}</label>
            <progress id="upload-progress" max="100" value="0" />
            <p class="small" aria-live="polite" data-progress-text />
          </div>
          <p class="form-error" role="alert" hidden data-upload-error />
        </form>
      </section>
    </Layout>
  );
}

/** A sentence of the catalogue that may need the names it is said with. */
const said = <Args,>(text: string | ((args: Args) => string), args: Args) =>
  typeof text === 'function' ? text(args) : text;

export function ImportResultPage({ appName, outcome }: { appName: string; outcome: ImportOutcome }) {
  const t = useMessages();
  const name = providerName(outcome.provider);
  if (!outcome.ok) {
    const found = outcome.found && providerName(outcome.found);
    const names = {
      provider: name,
      found: found ?? '',
      app: appName,
      files: t.or(providerGuide(outcome.provider)?.extensions ?? []),
    };
    const problem = found ? t.otherProviderFound : t.importProblems[outcome.problem ?? 'failed'];
    return (
      <Layout title={t.importFailedTitle} appName={appName} returnInPage>
        <section class="card error" aria-labelledby="result-title">
          <p class="status">{t.importFailedHeading}</p>
          <h1 id="result-title">{said(problem.title, names)}</h1>
          <p>{said(problem.advice, names)}</p>
          {outcome.problem === 'notAnExport' && <ReadProviders />}
          <p class="actions">
            {/* The upload script sends the same file again from here; without it, the file is picked again. */}
            {found ? (
              <a class="button" href={`/connect/${outcome.found}`} data-import-as={outcome.found}>
                {t.importAs({ provider: found })}
              </a>
            ) : (
              <a class="button" href={`/connect/${outcome.provider}`}>
                {t.tryAgain}
              </a>
            )}
            <a class="button secondary" href="/connect">
              {t.chooseAnother}
            </a>
            <ReturnLink status="error" />
          </p>
        </section>
      </Layout>
    );
  }
  const nothingNew = (outcome.created ?? 0) + (outcome.updated ?? 0) === 0;
  return (
    <Layout title={t.importCompleteTitle} appName={appName} returnInPage>
      <section class="card success" aria-labelledby="result-title">
        <h1 id="result-title">
          {nothingNew ? t.nothingNewHeading({ provider: name }) : t.importedHeading({ provider: name })}
        </h1>
        {nothingNew && <p>{t.nothingNewText({ provider: name })}</p>}
        <p class="big">{t.nowAvailable({ count: outcome.conversationCount ?? 0, provider: name, app: appName })}</p>
        <Counts
          facts={[
            [t.countNew, outcome.created],
            [t.countUpdated, outcome.updated],
            [t.countUnchanged, outcome.unchanged],
            [t.countSkipped, outcome.skipped],
          ]}
        />
        {outcome.skipped > 0 && <p>{t.skippedExplained}</p>}
        {outcome.notRead && outcome.notRead.length > 0 && (
          <p>
            {t.notImported({
              items: outcome.notRead.map(({ what, count }) => t.notReadCounts[what]({ count })),
            })}
          </p>
        )}
        <p>{t.closeOrLater}</p>
        <p class="actions">
          <ReturnLink status="success" connectionId={outcome.connectionId} button announce />
          <a class="button secondary" href={`/connect/${outcome.provider}`}>
            {t.uploadAnother}
          </a>
        </p>
      </section>
    </Layout>
  );
}
