import {
  asArray,
  asString,
  externalIdFrom,
  isObject,
  isoFrom,
  titleFrom,
  type BesideReader,
  type BesideRecord,
  type Json,
  type NormalizedMemory,
} from './format.ts';

/**
 * Claude's memories and projects, in the shapes its exports have shipped: `memories.json` of the
 * combined zip, `memories/<account>.json` of `memories-000.zip`, `projects.json`
 * or one `projects/<uuid>.json` each (also in `projects-000.zip`).
 */
export const claudeBeside: BesideReader = {
  zipMember: /(^|\/)(memories|projects)(\.json|\/[^/]+\.json)$/,
  recognizes: (raw) =>
    'conversations_memory' in raw || 'memory_files' in raw || 'prompt_template' in raw || 'is_starter_project' in raw,
  read: (raw) => ('prompt_template' in raw || 'is_starter_project' in raw ? projectOf(raw) : memoriesOf(raw)),
};

/**
 * The three shapes of one year: `{conversations_memory, account_uuid}` (one
 * account memory), the same with `project_memories` (one memory per project),
 * and `{account_uuid, memory_files}` (one account memory per file). A memory
 * with no text is none.
 */
function memoriesOf(raw: Json): BesideRecord[] | null {
  const account = externalIdFrom(raw.account_uuid);
  if (account === null) return null;
  const memories: NormalizedMemory[] = [];
  const add = (memory: Omit<NormalizedMemory, 'projectExternalId' | 'scope'> & Partial<NormalizedMemory>) => {
    if (memory.content !== '') memories.push({ scope: 'account', projectExternalId: null, ...memory });
  };
  const whole = asString(raw.conversations_memory);
  if (whole !== undefined)
    add({ externalId: `claude-memory-${account}`, title: null, content: whole, updatedAt: null });
  if (isObject(raw.project_memories))
    for (const [project, content] of Object.entries(raw.project_memories))
      if (typeof content === 'string')
        add({
          externalId: `claude-project-memory-${project}`,
          scope: 'project',
          projectExternalId: project,
          // The project's name, when it is known, is its title (see memories.ts).
          title: null,
          content,
          updatedAt: null,
        });
  for (const file of asArray(raw.memory_files).filter(isObject)) {
    const path = asString(file.path) ?? '';
    add({
      externalId: `claude-memory-${account}:${path}`,
      title: path === '' ? null : path,
      content: asString(file.content) ?? '',
      updatedAt: isoFrom(file.updated_at),
    });
  }
  return memories.map((memory) => ({ kind: 'memory', memory }));
}

/** A project, its knowledge files' text as given; the starter project every account has is no project of the person's. */
function projectOf(raw: Json): BesideRecord[] | null {
  if (raw.is_starter_project === true) return [];
  const externalId = externalIdFrom(raw.uuid);
  if (externalId === null) return null;
  const knowledge = asArray(raw.docs)
    .filter(isObject)
    .flatMap((doc, i) => {
      const text = asString(doc.content);
      if (text === undefined) return [];
      return [{ ref: externalIdFrom(doc.uuid) ?? `doc/${i}`, name: asString(doc.filename) || 'document.txt', text }];
    });
  return [
    {
      kind: 'project',
      project: {
        externalId,
        name: titleFrom(raw.name),
        description: titleFrom(raw.description),
        instructions: titleFrom(raw.prompt_template),
        createdAt: isoFrom(raw.created_at),
        updatedAt: isoFrom(raw.updated_at),
        knowledge,
      },
    },
  ];
}
