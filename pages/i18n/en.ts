import { ERRORS, type ErrorCode } from '../../src/errors.ts';
import { PROVIDER_GUIDES, type ProviderId } from '../providers.ts';
import { formatters, isoLikeDateTime, localeBasics } from './format.ts';

const f = formatters('en');
type App = { app: string };
type Provider = { provider: string };

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
  errors: Object.fromEntries(Object.entries(ERRORS).map(([code, [, message]]) => [code, message])) as Record<ErrorCode, string>,
  askAgain,
  advice: {
    missingLink: `This page opens only from a link the app gives you. ${askAgain}`,
    invalidLink: `This link is damaged or not meant for this service. ${askAgain}`,
    appNotFound: 'The app that made this link is not registered here. Contact the app’s support.',
    linkExpired: `Links work for 15 minutes, and this one has run out. ${askAgain}`,
    invalidLinkLifetime: `This link was made to last too long, so it is not accepted. ${askAgain}`,
    wrongLinkPurpose: `This link is for a different page. ${askAgain}`,
    forbiddenScope: 'This link asks for access the app is not allowed. Contact the app’s support.',
    linkAlreadyUsed: `Each link works once, and this one was already used. ${askAgain}`,
    sessionExpired: `Your session ended after 30 minutes without activity. ${askAgain}`,
    invalidCsrf: 'This form was out of date. Go back, reload the page and try again.',
    connectionNotFound: 'This connection does not exist or was removed.',
    conversationNotFound: 'This conversation does not exist or was deleted.',
    returnUrlNotAllowed: 'This link would send you back to an address the app has not registered, so it is not accepted. Contact the app’s support.',
    bodyTooLarge: 'The form was larger than this page accepts. Go back, reload the page and try again.',
    requestTimeout: 'The data arrived too slowly. Check your connection and try again.',
    importsBusy: 'Many files are being imported right now. Wait a moment, then upload your file again.',
  } satisfies Partial<Record<ErrorCode, string>>,

  startTitle: 'Import your conversations',
  startHeading: ({ app }: App) => `${app} would like to import your AI conversations`,
  startIntro: ({ services }: { services: string }) => `You can bring in your chat history from ${services}. Here is what happens:`,
  startSteps: ({ app }: App) => [
    'You pick the service and download your data export from it.',
    'You upload that file here. Parley reads your conversations from it.',
    `${app} can then read those conversations. You can review and delete them at any time.`,
  ],
  continue: 'Continue',
  linkWorksOnce: 'This link works once and for a few minutes only.',

  chooseTitle: 'Choose a service',
  chooseHeading: 'Where are your conversations?',
  chooseAnother: 'Choose another service',

  importFrom: ({ provider }: Provider) => `Import from ${provider}`,
  getExport: '1. Get your export',
  providerSteps: stepsByProvider(),
  waitingForExport: ({ app }: App) => `Waiting for the export? You can close this page: when the file is ready, start the import again from ${app}.`,
  uploadIt: '2. Upload it',
  exportFile: ({ files }: { files: string }) => `Export file (${files})`,
  upTo: ({ size }: { size: string }) => `Up to ${size}.`,
  uploadAndImport: 'Upload and import',
  uploading: 'Uploading…',
  /** The upload script's words; `{percent}` is filled in by the script. */
  script: {
    tooLarge: 'This file is too large to upload here.',
    progress: '{percent}% uploaded',
    reading: 'Uploaded. Reading your conversations…',
    refused: 'The upload was refused.',
    interrupted: 'The upload was interrupted. Check your connection and try again.',
    busy: 'Many files are being imported right now. Retrying in a moment…',
    starting: 'Starting the upload…',
  },

  importFailedTitle: 'Import failed',
  importFailedHeading: 'The import did not work',
  tryAgain: 'Try again',
  notProviderExport: ({ provider }: Provider) => `This file is not a ${provider} export.`,
  checkService: 'Check that you chose the service the file came from, or go back and choose another.',
  notAnExport: 'This file is not a conversations export.',
  uploadTheExport: ({ provider, files }: Provider & { files: string }) =>
    `Upload the export you downloaded from ${provider} (${files}), as the steps on the previous page describe.`,
  fileTooLarge: 'This file is too large to import here.',
  conversationTooLarge: 'One conversation in this file is too large to import.',
  raiseLimit: 'Contact the app’s support to raise the limit.',
  failedBecause: ({ reason }: { reason: string }) => `${reason}.`,
  maybeDamaged: ({ provider }: Provider) => `The file may be damaged or incomplete. Download the export from ${provider} again and upload the new file.`,

  importCompleteTitle: 'Import complete',
  importedHeading: ({ provider }: Provider) => `Your ${provider} conversations are in`,
  nowAvailable: ({ count, provider, app }: Provider & App & { count: number }) =>
    f.counted(count, { one: `# conversation from ${provider} is now available to ${app}.`, other: `# conversations from ${provider} are now available to ${app}.` }),
  countNew: 'New',
  countUpdated: 'Updated',
  countUnchanged: 'Unchanged',
  countSkipped: 'Skipped',
  nothingNew: 'Nothing new in this file: everything in it was already imported.',
  closeOrLater: 'You can close this page now, or upload a newer export later.',
  uploadAnother: 'Upload another file',

  statuses: { active: 'Connected', needs_reauth: 'Needs a new export', revoked: 'Disconnected' } as Record<string, string>,
  notices: {
    'conversation-deleted': 'The conversation was deleted.',
    disconnected: 'The connection was disconnected and its conversations deleted.',
    'all-deleted': 'All your data was deleted.',
  } as Record<string, string>,
  manageTitle: 'Your imported conversations',
  nothingImported: 'There is nothing here: no conversations have been imported for you.',
  connectedOn: 'Connected on',
  lastImport: 'Last import',
  conversations: 'Conversations',
  viewConversations: 'View conversations',
  downloadHeading: 'Download your data',
  downloadText: ({ app }: App) =>
    `One JSON file with everything ${app} holds for you: each connection and all its conversations, every message included — to keep, or to take to another service.`,
  downloadButton: 'Download my data',
  deleteAllHeading: 'Delete everything',
  deleteAllText: ({ app }: App) => `Remove all your imported conversations and connections from ${app}.`,
  deleteAllButton: 'Delete all my data',

  providerConversations: ({ provider }: Provider) => `${provider} conversations`,
  allConnections: 'All connections',
  countNewestFirst: ({ count }: { count: number }) => f.counted(count, { one: '# conversation, newest first', other: '# conversations, newest first' }),
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
  searchMatches: ({ count }: { count: number }) => f.counted(count, { one: '# conversation matches, best match first', other: '# conversations match, best match first' }),
  betterMatches: 'Better matches',
  moreMatches: 'More matches',
  searchPageTitle: ({ q }: { q: string }) => `“${q}”: your conversations`,
  disconnectHeading: ({ provider }: Provider) => `Disconnect ${provider}`,
  disconnectText: ({ app }: App) => `Deletes these conversations from ${app} and stops using this connection.`,
  disconnectButton: 'Disconnect',

  lastUpdated: 'Last updated',
  noMessages: 'This conversation has no messages.',
  reasoning: 'Reasoning',
  roles: { user: 'You', assistant: 'Assistant', system: 'System', tool: 'Tool' } as Record<string, string>,
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
  confirmDeleteAllText: ({ app }: App) => `Every conversation and connection imported for you will be deleted from ${app}.`,

  // The way back to the app, its brand on the pages, and a manage link opened by a preview.
  returnTo: ({ app }: App) => `Return to ${app}`,
  securedBy: 'Secured by Parley',
  privacyPolicy: ({ app }: App) => `${app}’s privacy policy`,
  openTitle: 'Open your conversations',
  openHeading: ({ app }: App) => `Your conversations shared with ${app}`,
  openText: 'Open the page to review, download or delete them.',
  openButton: 'Open',
};

export type Messages = typeof en;
