import { neutraliseBidi } from '../src/bidi-controls.ts';
import type { AttachmentView } from '../src/conversations/attachments.ts';
import type { Messages } from './i18n/en.ts';
import { useMessages } from './i18n/messages-context.ts';
import { Layout, Time } from './layout.tsx';
import { AttachmentItem, MessageText, Notice, Pager } from './manage-pages.tsx';
import type { ShownText } from './markdown.ts';
import { providerName } from './providers.ts';

/** A memory as a page names it: its title, else what it is about. */
export const memoryTitle = (memory: { scope: string; title: string | null }, t: Messages) =>
  memory.title !== null ? neutraliseBidi(memory.title) : memory.scope === 'account' ? t.accountMemory : t.projectMemory;

/** A project as a page names it (a ChatGPT project is known by its id only). */
export const projectName = (name: string | null, t: Messages) =>
  name === null ? t.untitledProject : neutraliseBidi(name);

interface ConnectionShown {
  id: string;
  provider: string;
}

/** The way back to a connection's page. */
function BackToConnection({ connection }: { connection: ConnectionShown }) {
  const t = useMessages();
  return (
    <p class="back">
      <a href={`/manage/connections/${connection.id}`}>
        ← {t.providerConversations({ provider: providerName(connection.provider) })}
      </a>
    </p>
  );
}

/** A list's page of `pageSize`, newest first. */
interface ListPage {
  total: number;
  page: number;
  pageSize: number;
}

/** A connection's memories, each its Markdown rendered as a message's is, and its own delete link. */
export function ManageMemoriesPage(
  props: ListPage & {
    appName: string;
    connection: ConnectionShown;
    memories: Array<{ id: string; scope: string; title: string | null; updated_at: string | null; content: ShownText }>;
    notice?: string | undefined;
  },
) {
  const { appName, connection, memories } = props;
  const t = useMessages();
  const title = t.providerMemories({ provider: providerName(connection.provider) });
  return (
    <Layout title={title} appName={appName}>
      <BackToConnection connection={connection} />
      <Notice notice={props.notice} />
      <section class="card" aria-labelledby="memories-title">
        <h1 id="memories-title">{title}</h1>
        <p class="muted">{t.memoriesText({ provider: providerName(connection.provider) })}</p>
        {memories.length === 0 && <p>{t.noneOnPage}</p>}
      </section>
      {memories.map((memory) => {
        const shown = memoryTitle(memory, t);
        return (
          <article key={memory.id} class="card memory" aria-labelledby={`memory-${memory.id}`}>
            <h2 id={`memory-${memory.id}`}>{shown}</h2>
            {memory.updated_at !== null && (
              <p class="muted small">
                {t.lastUpdated} <Time iso={memory.updated_at} />
              </p>
            )}
            <MessageText text={memory.content} />
            <p class="small">
              <a href={`/manage/memories/${memory.id}/delete`} aria-label={t.deleteMemoryLabel({ title: shown })}>
                {t.deleteMemory}
              </a>
            </p>
          </article>
        );
      })}
      <Pager
        {...props}
        href={(n) => `/manage/connections/${connection.id}/memories?page=${n}`}
        previous={`← ${t.newer}`}
        next={`${t.older} →`}
      />
    </Layout>
  );
}

/** A connection's projects: each a link to its page. */
export function ManageProjectsPage(
  props: ListPage & {
    appName: string;
    connection: ConnectionShown;
    projects: Array<{ id: string; name: string | null; description: string | null; updated_at: string | null }>;
    notice?: string | undefined;
  },
) {
  const { appName, connection, projects } = props;
  const t = useMessages();
  const title = t.providerProjects({ provider: providerName(connection.provider) });
  return (
    <Layout title={title} appName={appName}>
      <BackToConnection connection={connection} />
      <Notice notice={props.notice} />
      <section class="card" aria-labelledby="projects-title">
        <h1 id="projects-title">{title}</h1>
        {projects.length === 0 ? (
          <p>{t.noneOnPage}</p>
        ) : (
          <ul class="conversations">
            {projects.map((project) => (
              <li key={project.id}>
                <a href={`/manage/projects/${project.id}`}>{projectName(project.name, t)}</a>
                {project.description && <span class="small">{neutraliseBidi(project.description)}</span>}
                <span class="muted small">
                  <Time iso={project.updated_at} />
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pager
          {...props}
          href={(n) => `/manage/connections/${connection.id}/projects?page=${n}`}
          previous={`← ${t.newer}`}
          next={`${t.older} →`}
        />
      </section>
    </Layout>
  );
}

/** A project: its description, its instructions (Markdown, rendered as a message's), its knowledge files to open or download. */
export function ManageProjectPage(props: {
  appName: string;
  project: {
    id: string;
    name: string | null;
    description: string | null;
    instructions: ShownText | null;
    updated_at: string | null;
    connection_id: string;
    provider: string;
    knowledge: AttachmentView[];
  };
}) {
  const { appName, project } = props;
  const t = useMessages();
  const name = projectName(project.name, t);
  return (
    <Layout title={name} appName={appName}>
      <p class="back">
        <a href={`/manage/connections/${project.connection_id}/projects`}>
          ← {t.providerProjects({ provider: providerName(project.provider) })}
        </a>
      </p>
      <article class="card project" aria-labelledby="project-title">
        <h1 id="project-title">{name}</h1>
        {project.updated_at !== null && (
          <p class="muted small">
            {t.lastUpdated} <Time iso={project.updated_at} />
          </p>
        )}
        {project.description && <p>{neutraliseBidi(project.description)}</p>}
        <h2>{t.instructionsHeading}</h2>
        {project.instructions ? <MessageText text={project.instructions} /> : <p class="muted">{t.noInstructions}</p>}
        <h2>{t.knowledgeHeading}</h2>
        {project.knowledge.length === 0 ? (
          <p class="muted">{t.noKnowledge}</p>
        ) : (
          <ul class="attachments" aria-label={t.knowledgeHeading}>
            {project.knowledge.map((file) => (
              <AttachmentItem key={file.id} attachment={file} deletable={false} />
            ))}
          </ul>
        )}
      </article>
      <section class="card danger-zone" aria-labelledby="delete-title">
        <h2 id="delete-title">{t.deleteProjectHeading}</h2>
        <a class="button danger" href={`/manage/projects/${project.id}/delete`}>
          {t.deleteProjectButton}
        </a>
      </section>
    </Layout>
  );
}
