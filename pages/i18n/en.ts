import { ERRORS, type ErrorCode } from '../../src/errors.ts';
import { PROVIDER_GUIDES, type ProviderId } from '../providers.ts';
import type { ImportProblem } from '../../src/errors.ts';
import type { NotReadWhat } from '../../src/import/formats/format.ts';
import { formatters, isoLikeDateTime, localeBasics } from './format.ts';

const f = formatters('en');
type App = { app: string };
type Provider = { provider: string };
/** A failed import's heading and next step; either may need the provider's name, the app's, or the files it takes. */
type ImportProblemText = {
  title: string | ((p: Provider) => string);
  advice: string | ((p: Provider & App & { files: string }) => string);
};

/** The English steps live with the providers (tests and docs read them there). */
function stepsByProvider(): Record<ProviderId, readonly string[]> {
  const steps = {} as Record<ProviderId, readonly string[]>;
  for (const guide of PROVIDER_GUIDES) steps[guide.id] = guide.steps;
  return steps;
}

const askAgain = 'Go back to the app you came from and open this page again: it will give you a new link.';

/**
 * Every sentence the hosted pages show, in English. This catalogue defines the
 * keys: each other language's is typed `Messages`, so a missing one does not compile.
 */
export const en = {
  ...localeBasics('en'),
  dateTime: isoLikeDateTime,

  theAppYouCameFrom: 'the app you came from',
  footer: ({ app }: App) => `Your conversations are stored for ${app} and only shown to you and to it.`,
  unknownTime: 'unknown',

  errorStatus: ({ status }: { status: number }) => `Error ${status}`,
  /** The API's messages, word for word; pages show them as their heading. */
  errors: Object.fromEntries(Object.entries(ERRORS).map(([code, [, message]]) => [code, message])) as Record<
    ErrorCode,
    string
  >,
  askAgain,
  advice: {
    missingLink: `This page opens only from a link the app gives you. ${askAgain}`,
    invalidLink: `This link is damaged or not meant for this service. ${askAgain}`,
    appNotFound: 'The app that made this link is not registered here. Contact the app’s support.',
    linkExpired: `This link has run out: the app makes links that work only for a short time. ${askAgain}`,
    invalidLinkLifetime: `This link was made to last too long, so it is not accepted. ${askAgain}`,
    wrongLinkPurpose: `This link is for a different page. ${askAgain}`,
    forbiddenScope: 'This link asks for access the app is not allowed. Contact the app’s support.',
    linkAlreadyUsed: `Each link works once, and this one was already used. ${askAgain}`,
    sessionExpired: `Your session here has ended: it closes after 30 minutes without activity. ${askAgain}`,
    invalidCsrf: 'This form was out of date. Go back, reload the page and try again.',
    connectionNotFound: 'This connection does not exist or was removed.',
    conversationNotFound: 'This conversation does not exist or was deleted.',
    attachmentNotFound: 'This file does not exist or was deleted.',
    memoryNotFound: 'This memory does not exist or was deleted.',
    projectNotFound: 'This project does not exist or was deleted.',
    returnUrlNotAllowed:
      'This link would send you back to an address the app has not registered, so it is not accepted. Contact the app’s support.',
    bodyTooLarge: 'The form was larger than this page accepts. Go back, reload the page and try again.',
    requestTimeout: 'The data arrived too slowly. Check your connection and try again.',
    importsBusy: 'Many files are being imported right now. Wait a moment, then upload your file again.',
  } satisfies Partial<Record<ErrorCode, string>>,

  startTitle: 'Import your conversations',
  startHeading: ({ app }: App) => `${app} would like to import your AI conversations`,
  startIntro: ({ services }: { services: string }) =>
    `You can bring in your chat history from ${services}. Here is what happens:`,
  startSteps: ({ app }: App) => [
    'You pick the service and download your data export from it.',
    'You upload that file here. Parley reads your conversations from it.',
    `${app} can then read those conversations. You can review and delete them at any time.`,
  ],
  continue: 'Continue',
  linkWorksOnce: 'This link works once, and only for a short time.',

  chooseTitle: 'Choose a service',
  chooseHeading: 'Where are your conversations?',
  chooseAnother: 'Choose another service',
  notListed: 'My assistant is not listed',
  notListedTitle: 'Your assistant is not listed',
  parleyReads: 'Parley reads the exports of these assistants:',
  notListedAsk: ({ app }: App) =>
    `Tell ${app} which assistant you use, so that it can ask for it to be added. No file is taken on this page.`,
  /** A file of another service than the one chosen, which Parley recognised. */
  otherProviderFound: {
    title: ({ found }: { found: string }) => `This is a ${found} export`,
    advice: ({ provider, found }: Provider & { found: string }) =>
      `You chose ${provider}, but this file is an export from ${found}. Import it as ${found}?`,
  },
  importAs: ({ provider }: Provider) => `Import it as ${provider}`,

  importFrom: ({ provider }: Provider) => `Import from ${provider}`,
  getExport: '1. Get your export',
  providerSteps: stepsByProvider(),
  waitingForExport: ({ app, hours }: App & { hours: number }) =>
    `Waiting for the export? Keep this tab, or come back to this page in this browser on this device within ${f.counted(hours, { one: '# hour', other: '# hours' })}: it will be where you left it. The link from ${app} works only once, so another browser or device needs a new one.`,
  uploadIt: '2. Upload it',
  exportFile: ({ files }: { files: string }) => `Export file (${files})`,
  upTo: ({ size }: { size: string }) => `Up to ${size}.`,
  uploadAndImport: 'Upload and import',
  uploading: 'Uploading…',
  /** The upload script's words; `{loaded}`, `{total}` and `{percent}` are filled in by the script. */
  script: {
    tooLarge: 'This file is too large to upload here.',
    progress: '{loaded} of {total} · {percent}%',
    reading: 'Importing…',
    refused: 'The upload was refused.',
    interrupted: 'The upload was interrupted. Check your connection and try again.',
    busy: 'Many files are being imported right now. Retrying in a moment…',
    starting: 'Starting the upload…',
    resume: 'The upload of {file} stopped at {percent}%. Choose the same file again: it continues from there.',
    reconnecting: 'The connection dropped. The upload continues as soon as it is back…',
  },

  importFailedTitle: 'Import failed',
  importFailedHeading: 'The import did not work',
  tryAgain: 'Try again',
  importCompleteTitle: 'Import complete',
  importedHeading: ({ provider }: Provider) => `Your ${provider} conversations are in`,
  nowAvailable: ({ count, provider, app }: Provider & App & { count: number }) =>
    f.counted(count, {
      one: `# conversation from ${provider} is now available to ${app}.`,
      other: `# conversations from ${provider} are now available to ${app}.`,
    }),
  countNew: 'New',
  countUpdated: 'Updated',
  countUnchanged: 'Unchanged',
  countSkipped: 'Skipped',
  /** What an export held that Parley does not keep (the import's `notRead`), listed after this. */
  notImported: ({ items }: { items: string[] }) => `Not imported: ${items.join(', ')}.`,
  notReadCounts: {
    'design chats': ({ count }: { count: number }) =>
      f.counted(count, { one: '# design chat', other: '# design chats' }),
    'artifact versions': ({ count }: { count: number }) =>
      f.counted(count, { one: '# artifact version', other: '# artifact versions' }),
    'feedback files': ({ count }: { count: number }) =>
      f.counted(count, { one: '# feedback file', other: '# feedback files' }),
    'account files': ({ count }: { count: number }) =>
      f.counted(count, { one: '# account file', other: '# account files' }),
    'voice recordings': ({ count }: { count: number }) =>
      f.counted(count, { one: '# voice recording', other: '# voice recordings' }),
    'chat.html pages': ({ count }: { count: number }) =>
      f.counted(count, { one: '# chat.html page', other: '# chat.html pages' }),
    'shared conversation lists': ({ count }: { count: number }) =>
      f.counted(count, { one: '# list of shared conversations', other: '# lists of shared conversations' }),
    projects: ({ count }: { count: number }) => f.counted(count, { one: '# project', other: '# projects' }),
    tasks: ({ count }: { count: number }) => f.counted(count, { one: '# task', other: '# tasks' }),
    'media posts': ({ count }: { count: number }) => f.counted(count, { one: '# media post', other: '# media posts' }),
  } as Record<NotReadWhat, (counted: { count: number }) => string>,
  /** Under the counts when some were skipped: what skipping means, deletions included. */
  skippedExplained:
    'Skipped: what could not be read, copies the export repeats, and what you deleted here before — it stays deleted.',
  closeOrLater: 'You can close this page now, or upload a newer export later.',
  uploadAnother: 'Upload another file',

  statuses: { active: 'Connected', needs_reauth: 'Needs a new export', revoked: 'Disconnected' } as Record<
    string,
    string
  >,
  notices: {
    'conversation-deleted': 'The conversation was deleted.',
    'attachment-deleted': 'The file was deleted.',
    'memory-deleted': 'The memory was deleted.',
    'project-deleted': 'The project was deleted.',
    disconnected: 'The connection was disconnected and its conversations deleted.',
  } as Record<string, string>,
  manageTitle: 'Your imported conversations',
  nothingImported: 'There is nothing here: no conversations have been imported for you.',
  downloadHeading: 'Download your data',
  downloadText: ({ app }: App) =>
    `One zip file with everything ${app} holds for you: each connection with all its conversations (every message included), memories and projects, as JSON, and the files and images of your messages and projects — to keep, or to take to another service.`,
  downloadButton: 'Download my data',
  deleteAllHeading: 'Delete everything',
  deleteAllText: ({ app }: App) => `Remove all your imported conversations and connections from ${app}.`,
  deleteAllButton: 'Delete all my data',
  importHeading: 'Import from another service',
  importText: ({ app }: App) =>
    `Bring your conversations, memories and projects from another AI assistant to ${app}, or a newer export of one you imported.`,
  importButton: 'Import from another service',

  providerConversations: ({ provider }: Provider) => `${provider} conversations`,
  allConnections: 'All connections',
  countNewestFirst: ({ count }: { count: number }) =>
    f.counted(count, { one: '# conversation, newest first', other: '# conversations, newest first' }),
  noConversationsOnPage: 'No conversations on this page.',
  noConversations: 'No conversations here.',
  untitled: 'Untitled conversation',
  pages: 'Pages',
  newer: 'Newer',
  older: 'Older',
  pageOf: ({ page, pages }: { page: number; pages: number }) => `Page ${f.number(page)} of ${f.number(pages)}`,
  searchTitle: 'Search your conversations',
  searchLabel: 'Words to find in titles and messages',
  searchButton: 'Search',
  searchNone: 'No conversations match.',
  searchNoMore: 'No more conversations match.',
  searchMatches: ({ count }: { count: number }) =>
    f.counted(count, {
      one: '# conversation matches, best match first',
      other: '# conversations match, best match first',
    }),
  betterMatches: 'Better matches',
  moreMatches: 'More matches',
  searchPageTitle: ({ q }: { q: string }) => `“${q}”: your conversations`,
  disconnectHeading: ({ provider }: Provider) => `Disconnect ${provider}`,
  disconnectText: ({ app }: App) => `Deletes these conversations from ${app} and stops using this connection.`,
  disconnectButton: 'Disconnect',

  lastUpdated: 'Last updated',
  showWholeOutput: ({ count }: { count: number }) =>
    f.counted(count, { one: 'Show the whole output', other: 'Show all # lines' }),

  // A connection's memories and projects.
  memoryCount: ({ count }: { count: number }) => f.counted(count, { one: '# memory', other: '# memories' }),
  projectCount: ({ count }: { count: number }) => f.counted(count, { one: '# project', other: '# projects' }),
  besideHeading: 'Memories and projects',
  providerMemories: ({ provider }: Provider) => `${provider} memories`,
  memoriesText: ({ provider }: Provider) => `What ${provider} remembered about you, as its export holds it.`,
  providerProjects: ({ provider }: Provider) => `${provider} projects`,
  noneOnPage: 'Nothing on this page.',
  accountMemory: 'About you',
  projectMemory: 'Project memory',
  untitledProject: 'Untitled project',
  instructionsHeading: 'Instructions',
  noInstructions: 'This project has no instructions.',
  knowledgeHeading: 'Knowledge files',
  noKnowledge: 'This project has no knowledge files.',
  deleteMemory: 'Delete',
  deleteMemoryLabel: ({ title }: { title: string }) => `Delete the memory “${title}”`,
  confirmDeleteMemory: 'Delete this memory?',
  confirmDeleteMemoryText: ({ title, size, app }: App & { title: string; size: string }) =>
    `The memory “${title}” (${size}) will be deleted from ${app}.`,
  deleteMemoryButton: 'Delete memory',
  deleteProjectHeading: 'Delete this project',
  deleteProjectButton: 'Delete project',
  confirmDeleteProject: 'Delete this project?',
  confirmDeleteProjectText: ({ name, files, size, app }: App & { name: string; files: number; size: string }) =>
    `The project “${name}”, its instructions and ${f.counted(files, { one: 'its # knowledge file', other: 'its # knowledge files' })} (${size} in all) will be deleted from ${app}. Its conversations stay.`,
  staysDeleted:
    'Importing the same export again later will not bring it back, unless you disconnect the whole connection first.',
  noMessages: 'This conversation has no messages.',
  reasoning: 'Reasoning',
  shownAsPlainText: 'Too long to format here: shown as plain text.',
  roles: { user: 'You', assistant: 'Assistant', system: 'System', tool: 'Tool' } as Record<string, string>,
  attachmentsLabel: 'Files',
  attachmentNotStored: 'not in the export',
  documentCut: 'This is the start of the text.',
  downloadWholeText: 'Download the whole text',
  deleteAttachment: 'Delete',
  deleteAttachmentLabel: ({ name }: { name: string }) => `Delete ${name}`,
  confirmDeleteAttachment: 'Delete this file?',
  confirmDeleteAttachmentText: ({ name, app }: App & { name: string }) =>
    `“${name}” will be deleted from ${app}. The conversation stays.`,
  deleteAttachmentButton: 'Delete file',
  deleteConversationHeading: 'Delete this conversation',
  deleteConversationButton: 'Delete conversation',

  cannotBeUndone: 'This cannot be undone.',
  cancel: 'Cancel',
  confirmDeleteConversation: 'Delete this conversation?',
  confirmDeleteConversationText: ({ title, app }: App & { title: string }) => `“${title}” will be deleted from ${app}.`,
  confirmDisconnect: ({ provider }: Provider) => `Disconnect ${provider}?`,
  confirmDisconnectText: ({ count, provider, app }: Provider & App & { count: number }) =>
    f.counted(count, {
      one: `The # ${provider} conversation will be deleted from ${app}, and the connection will show as disconnected.`,
      other: `All # ${provider} conversations will be deleted from ${app}, and the connection will show as disconnected.`,
    }),
  confirmDeleteAll: 'Delete all your data?',
  confirmDeleteAllText: ({ app }: App) =>
    `Every conversation and connection imported for you will be deleted from ${app}.`,
  // What the connect start page says of the person's data.
  trustHeading: 'Your data',
  trustWhatTerm: 'What is imported',
  trustWhat:
    'Only the conversations in the export file you upload: your messages and the replies, with their titles and dates, as the service wrote them in the file. Parley gets no password and no access to your account.',
  trustWhoTerm: 'Who sees it',
  trustWho: ({ app }: App) =>
    `${app}, and you. Parley keeps your conversations for ${app} and shows them to no one else.`,
  trustDeleteTerm: 'Review and delete',
  trustDelete: ({ app }: App) =>
    `Any time, on the page where ${app} lets you manage your imported conversations: read them, delete one, or delete them all.`,
  privacyPolicyIntro: ({ app }: App) => `How ${app} uses your data:`,
  privacyPolicy: ({ app }: App) => `${app}’s privacy policy`,

  // The upload's drop zone.
  dropZone: 'Choose a file or drop it here',
  fileChosen: 'File chosen',

  /** One page per kind of failed import (src/errors.ts: IMPORT_PROBLEMS), each saying what to do next. */
  importProblems: {
    notAnExport: {
      title: 'This file is not a conversations export',
      advice: ({ provider, files }: Provider & { files: string }) =>
        `Upload the file you downloaded from ${provider} (${files}), not a screenshot or another document. The steps on the previous page say how to get it.`,
    },
    otherProvider: {
      title: ({ provider }: Provider) => `This is not a ${provider} export`,
      advice: ({ provider }: Provider) =>
        `It looks like an export from another service. Choose the service the file came from, or upload the export you downloaded from ${provider}.`,
    },
    misexported: {
      title: ({ provider }: Provider) => `This ${provider} export was made with other settings`,
      advice: ({ provider }: Provider) =>
        `Make the export from ${provider} again exactly as the steps on the previous page describe, choosing JSON as the format, then upload the new file.`,
    },
    damaged: {
      title: 'This file is damaged or incomplete',
      advice: ({ provider }: Provider) =>
        `It may have been cut short while it downloaded. Download the export from ${provider} again and upload the new file.`,
    },
    tooLarge: {
      title: 'This file is too large to import here',
      advice: ({ app }: App) => `Contact ${app}’s support: they can raise the limit.`,
    },
    conversationTooLarge: {
      title: 'One conversation in this file is too large to import',
      advice: ({ app }: App) => `Contact ${app}’s support: they can raise the limit.`,
    },
    conflict: {
      title: 'Another import was running at the same time',
      advice: 'Nothing was imported from this file. Upload it again.',
    },
    failed: {
      title: 'Something went wrong on our side',
      advice: ({ app }: App) =>
        `Nothing was imported. Try again in a few minutes; if it keeps happening, contact ${app}’s support.`,
    },
  } satisfies Record<ImportProblem, ImportProblemText>,
  nothingNewHeading: ({ provider }: Provider) => `Nothing new in this ${provider} export`,
  nothingNewText: ({ provider }: Provider) =>
    `Everything in it was already imported. To bring in newer conversations, make a new export from ${provider} and upload it.`,

  // A page of a session this browser never opened.
  noSessionTitle: 'Open this page from the app',
  noSessionAdvice: `This page works only after you open a link the app gives you, and this browser has not opened one. ${askAgain}`,
  /** A connect session past CONNECT_SESSION_HOURS. */
  connectSessionEnded: ({ hours }: { hours: number }) =>
    `This page stays open for ${f.counted(hours, { one: '# hour', other: '# hours' })} after you first opened it, and that time has passed. ${askAgain}`,

  // The manage pages' rows, times and notices.
  connectionsHeading: 'Your connections',
  conversationCount: ({ count }: { count: number }) =>
    f.counted(count, { one: '# conversation', other: '# conversations' }),
  updatedAgo: ({ when }: { when: string }) => `updated ${when}`,
  disconnectedRow: 'Disconnected · its conversations were deleted',
  revokedText: ({ app }: App) =>
    `This connection was disconnected and its conversations were deleted. To bring them back, start a new import from ${app}.`,
  allDeletedHeading: 'Everything was deleted',
  allDeletedText: ({ connections, conversations, app }: App & { connections: number; conversations: number }) =>
    `${f.counted(connections, { one: '# connection', other: '# connections' })} and ${f.counted(conversations, { one: '# conversation', other: '# conversations' })} were deleted. ${app} holds none of your conversations now.`,
  // What the app read of the person's data, and how: the last 30 days of the access log.
  accessHeading: 'Who read your conversations',
  accessNone: ({ app }: App) => `In the last 30 days, neither ${app} nor its assistant read your conversations.`,
  accessServer: ({ app, days }: App & { days: number }) =>
    `In the last 30 days, ${app}'s server read your conversations on ${f.counted(days, { one: '# day', other: '# days' })}.`,
  accessAgent: ({ app, reads, searches }: App & { reads: number; searches: number }) =>
    `${app}'s assistant read them ${f.counted(reads, { one: '# time', other: '# times' })}, searching them ${f.counted(searches, { one: '# time', other: '# times' })}.`,
  backToTop: 'Back to top',
  copyCode: 'Copy',
  codeCopied: 'Copied',
  code: 'Code',

  // The way back to the app, its brand on the pages, and a manage link opened by a preview.
  returnTo: ({ app }: App) => `Return to ${app}`,
  securedBy: 'Secured by Parley',
  openTitle: 'Open your conversations',
  openHeading: ({ app }: App) => `Your conversations shared with ${app}`,
  openText: 'Open the page to review, download or delete them.',
  openButton: 'Open',
};

export type Messages = typeof en;
