import { useMessages } from './i18n/messages-context.ts';
import { Layout } from './layout.tsx';
import { ReturnLink } from './return-link.tsx';

export interface ErrorPageProps {
  status: number;
  message: string;
  /** A plain sentence: what the person can do now. */
  advice: string;
  appName?: string | undefined;
}

export function ErrorPage({ status, message, advice, appName }: ErrorPageProps) {
  const t = useMessages();
  return (
    <Layout title={message} appName={appName} returnInPage>
      <section class="card error" aria-labelledby="error-title">
        <p class="status">{t.errorStatus({ status })}</p>
        <h1 id="error-title">{message}</h1>
        <p>{advice}</p>
        <ReturnLink status="error" button announce />
      </section>
    </Layout>
  );
}
