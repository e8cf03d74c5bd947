import type { Messages } from './en.ts';
import { formatters, localeBasics } from './format.ts';

const f = formatters('de');
const askAgain =
  'Gehe zurück zur App, von der du kommst, und öffne diese Seite dort erneut: Sie gibt dir einen neuen Link.';

export const de: Messages = {
  ...localeBasics('de'),

  theAppYouCameFrom: 'die App, von der du kommst',
  footer: ({ app }) => `Deine Unterhaltungen werden für ${app} gespeichert und nur dir und der App gezeigt.`,
  unknownTime: 'unbekannt',

  errorStatus: ({ status }) => `Fehler ${status}`,
  errors: {
    missingAuthorization: 'Authorization-Header fehlt',
    invalidApiKey: 'Ungültiger API-Schlüssel',
    invalidAgentToken: 'Ungültiges Agent-Token',
    invalidMetricsToken: 'Ungültiges Metrik-Token',
    originNotAllowed: 'Herkunft nicht erlaubt: MCP_ALLOWED_ORIGINS setzen',
    missingUserRef: 'Parameter userRef fehlt',
    invalidUserRef: 'Ungültiger Parameter userRef',
    missingConnectionId: 'Parameter connectionId fehlt',
    invalidLimit: 'Ungültiger Parameter limit',
    invalidOffset: 'Ungültiger Parameter offset',
    invalidUpdatedSince: 'Ungültiger Parameter updatedSince',
    invalidQ: 'Ungültiger Parameter q',
    invalidFields: 'Ungültiger Parameter fields',
    invalidExpiresInSeconds: 'Ungültiger Parameter expiresInSeconds',
    invalidJsonBody: 'Ungültiger JSON-Inhalt',
    purgeTarget: 'Gib genau eines an: userRef oder connectionId',
    unrecognizedExport: 'Unbekanntes Exportformat',
    invalidExport: 'Ungültige Exportdatei',
    fileNotAnExport: 'Ungültige Exportdatei',
    misexportedExport: 'Ungültige Exportdatei',
    invalidProvider: 'Ungültiger Dienst',
    invalidTimeZone: 'Ungültige Zeitzone',
    userNotFound: 'Person nicht gefunden',
    connectionNotFound: 'Verbindung nicht gefunden',
    conversationNotFound: 'Unterhaltung nicht gefunden',
    attachmentNotFound: 'Anhang nicht gefunden',
    memoryNotFound: 'Erinnerung nicht gefunden',
    projectNotFound: 'Projekt nicht gefunden',
    notFound: 'Nicht gefunden',
    methodNotAllowed: 'Methode nicht erlaubt',
    requestTimeout: 'Zeitüberschreitung der Anfrage',
    connectionRevoked: 'Verbindung ist getrennt',
    importConflict: 'Importkonflikt: Die Verbindung hat sich während des Hochladens geändert. Bitte erneut senden',
    exportTooLarge: 'Exportdatei zu groß',
    conversationTooLarge: 'Exportdatei zu groß: eine Unterhaltung',
    expandedTooLarge: 'Exportdatei zu groß: entpackt',
    attachmentTooLarge: 'Exportdatei zu groß: eine Datei darin',
    tooManyRecords: 'Exportdatei zu groß: zu viele Einträge',
    bodyTooLarge: 'Anfrage zu groß',
    unsupportedContentType: 'Nicht unterstützter Inhaltstyp',
    rangeNotSatisfiable: 'Bereich nicht erfüllbar',
    rateLimited: 'Zu viele Anfragen',
    internal: 'Interner Serverfehler',
    databaseBusy: 'Datenbank ausgelastet: bitte gleich noch einmal versuchen',
    importsBusy: 'Zu viele Importe gleichzeitig: versuche es gleich noch einmal',
    missingLink: 'Link fehlt',
    invalidLink: 'Ungültiger Link',
    appNotFound: 'App nicht gefunden',
    keyNotFound: 'Schlüssel nicht gefunden',
    deliveryNotFound: 'Zustellung nicht gefunden',
    invalidWebhookUrl: 'Ungültige Webhook-URL',
    webhookUrlCredentials: 'Ungültige Webhook-URL',
    privateWebhookUrl: 'Ungültige Webhook-URL',
    invalidDeliveryStatus: 'Ungültiger Status',
    linkExpired: 'Link abgelaufen',
    invalidLinkLifetime: 'Ungültige Link-Gültigkeitsdauer',
    wrongLinkPurpose: 'Link für eine andere Seite',
    forbiddenScope: 'Unerlaubter Zugriffsbereich',
    linkAlreadyUsed: 'Link bereits benutzt',
    sessionExpired: 'Sitzung abgelaufen',
    invalidCsrf: 'Ungültiges Formular-Token',
    invalidReturnUrl: 'Ungültige returnUrl',
    returnUrlNotAllowed: 'Ungültige returnUrl',
    invalidReturnOrigin: 'Ungültiger Rückkehr-Ursprung',
    invalidDisplayName: 'Ungültiger Anzeigename',
    invalidAccentColor: 'Ungültige Akzentfarbe',
    accentColorTooLight: 'Akzentfarbe zu hell',
    invalidPrivacyUrl: 'Ungültige URL der Datenschutzerklärung',
    invalidLogo: 'Ungültiges Logo',
    logoTooLarge: 'Logo zu groß',
    importPurged: 'Import abgelehnt: Die Daten dieser Person wurden während des Hochladens gelöscht',
    userStorageFull: 'Import würde das Speicherlimit überschreiten: pro Person',
    appStorageFull: 'Import würde das Speicherlimit überschreiten: für die App',
    uploadNotFound: 'Upload nicht gefunden',
    uploadNotComplete: 'Upload nicht vollständig',
    uploadImporting: 'Upload wird bereits importiert: das Ergebnis folgt',
    tooManyOpenUploads: 'Zu viele offene Uploads',
    uploadOffsetMismatch: 'Upload-Offset passt nicht zu den empfangenen Bytes',
    invalidUploadLength: 'Ungültiger Upload-Length-Header',
    invalidUploadOffset: 'Ungültiger Upload-Offset-Header',
    invalidUploadMetadata: 'Ungültiger Upload-Metadata-Header',
    unsupportedTusVersion: 'Nicht unterstützte Tus-Resumable-Version: verwende 1.0.0',
  },
  askAgain,
  advice: {
    missingLink: `Diese Seite öffnet sich nur über einen Link, den dir die App gibt. ${askAgain}`,
    invalidLink: `Dieser Link ist beschädigt oder nicht für diesen Dienst bestimmt. ${askAgain}`,
    appNotFound:
      'Die App, die diesen Link erstellt hat, ist hier nicht registriert. Wende dich an den Support der App.',
    linkExpired: `Dieser Link ist abgelaufen: Die App erstellt Links, die nur kurze Zeit gelten. ${askAgain}`,
    invalidLinkLifetime: `Dieser Link wurde zu lange gültig gemacht und wird deshalb nicht angenommen. ${askAgain}`,
    wrongLinkPurpose: `Dieser Link gehört zu einer anderen Seite. ${askAgain}`,
    forbiddenScope: 'Dieser Link verlangt Zugriff, den die App nicht haben darf. Wende dich an den Support der App.',
    linkAlreadyUsed: `Jeder Link funktioniert nur einmal, und dieser wurde schon benutzt. ${askAgain}`,
    sessionExpired: `Deine Sitzung hier ist beendet: Sie schließt sich nach 30 Minuten ohne Aktivität. ${askAgain}`,
    invalidCsrf: 'Dieses Formular war veraltet. Gehe zurück, lade die Seite neu und versuche es noch einmal.',
    connectionNotFound: 'Diese Verbindung gibt es nicht oder sie wurde entfernt.',
    conversationNotFound: 'Diese Unterhaltung gibt es nicht oder sie wurde gelöscht.',
    attachmentNotFound: 'Diese Datei gibt es nicht oder sie wurde gelöscht.',
    memoryNotFound: 'Diese Erinnerung gibt es nicht oder sie wurde gelöscht.',
    projectNotFound: 'Dieses Projekt gibt es nicht oder es wurde gelöscht.',
    returnUrlNotAllowed:
      'Dieser Link würde dich zu einer Adresse zurückschicken, die die App nicht angemeldet hat, daher wird er nicht angenommen. Wende dich an den Support der App.',
    bodyTooLarge:
      'Das Formular war größer, als diese Seite annimmt. Gehe zurück, lade die Seite neu und versuche es noch einmal.',
    requestTimeout: 'Die Daten kamen zu langsam an. Prüfe deine Verbindung und versuche es noch einmal.',
    importsBusy:
      'Gerade werden viele Dateien importiert. Warte einen Moment und lade deine Datei dann noch einmal hoch.',
  },

  startTitle: 'Unterhaltungen importieren',
  startHeading: ({ app }) => `${app} möchte deine KI-Unterhaltungen importieren`,
  startIntro: ({ services }) => `Du kannst deinen Chatverlauf aus ${services} übernehmen. So funktioniert es:`,
  startSteps: ({ app }) => [
    'Du wählst den Dienst und lädst dort deinen Datenexport herunter.',
    'Du lädst die Datei hier hoch. Parley liest deine Unterhaltungen daraus.',
    `${app} kann diese Unterhaltungen dann lesen. Du kannst sie jederzeit ansehen und löschen.`,
  ],
  continue: 'Weiter',
  linkWorksOnce: 'Dieser Link funktioniert nur einmal und nur kurze Zeit.',

  chooseTitle: 'Dienst wählen',
  chooseHeading: 'Wo sind deine Unterhaltungen?',
  chooseAnother: 'Anderen Dienst wählen',
  notListed: 'Mein Assistent ist nicht dabei',
  notListedTitle: 'Dein Assistent ist nicht dabei',
  parleyReads: 'Parley liest die Exporte dieser Assistenten:',
  notListedAsk: ({ app }) =>
    `Sag ${app}, welchen Assistenten du nutzt, damit er ergänzt werden kann. Auf dieser Seite wird keine Datei übernommen.`,
  otherProviderFound: {
    title: ({ found }) => `Das ist ein ${found}-Export`,
    advice: ({ provider, found }) =>
      `Du hast ${provider} gewählt, aber diese Datei ist ein Export von ${found}. Als ${found} importieren?`,
  },
  importAs: ({ provider }) => `Als ${provider} importieren`,

  importFrom: ({ provider }) => `Import aus ${provider}`,
  getExport: '1. Export anfordern',
  providerSteps: {
    openai: [
      'Öffne ChatGPT (chatgpt.com oder die App) und melde dich an.',
      'Gehe zu Einstellungen → Datenkontrollen → Daten exportieren und wähle Exportieren.',
      'ChatGPT schickt dir einen Download-Link per E-Mail, meist innerhalb von Minuten (es kann länger dauern). Lade die .zip-Datei herunter.',
      'Lade diese .zip-Datei unverändert hier hoch. Die darin enthaltene conversations.json geht auch.',
    ],
    anthropic: [
      'Öffne Claude (claude.ai) und melde dich an.',
      'Gehe zu Einstellungen → Datenschutz → Daten exportieren.',
      'Claude schickt dir einen Download-Link per E-Mail. Lade die .zip-Datei herunter.',
      'Lade diese .zip-Datei unverändert hier hoch. Die darin enthaltene conversations.json geht auch.',
    ],
    google: [
      'Öffne Google Takeout (takeout.google.com) und melde dich an.',
      'Wähle „Auswahl aufheben“ und setze dann ein Häkchen bei „Meine Aktivitäten“.',
      'Öffne unter „Meine Aktivitäten“ den Punkt „Alle Aktivitätsdaten enthalten“ und behalte nur Gemini-Apps; öffne „Mehrere Formate“ und wähle JSON.',
      'Erstelle den Export und lade die .zip-Datei herunter, sobald Google sie bereitstellt.',
      'Lade diese .zip-Datei unverändert hier hoch. Die darin enthaltene MeineAktivitäten.json (unter Meine Aktivitäten → Gemini-Apps) geht auch.',
    ],
    microsoft: [
      'Öffne das Microsoft-Datenschutzdashboard (account.microsoft.com/privacy) und melde dich an.',
      'Suche den Copilot-Aktivitätsverlauf und lade ihn herunter.',
      'Lade die Datei copilot-activity-history.csv hier hoch, oder die .zip-Datei, in der sie kam.',
    ],
    xai: [
      'Melde dich bei deinem xAI-Konto an (accounts.x.ai) — dem, das du für Grok verwendest.',
      'Fordere dort einen Download deiner Daten an.',
      'Sobald xAI dir Bescheid gibt, lade die .zip-Datei herunter.',
      'Lade diese .zip-Datei unverändert hier hoch. Die darin enthaltene prod-grok-backend.json geht auch.',
    ],
    deepseek: [
      'Öffne DeepSeek (chat.deepseek.com) und melde dich an.',
      'Gehe zu Einstellungen → Datenverwaltung → Exportieren und exportiere deinen gesamten Verlauf.',
      'Lade die .zip-Datei herunter.',
      'Lade diese .zip-Datei unverändert hier hoch. Die darin enthaltene conversations.json geht auch.',
    ],
    perplexity: [
      'Öffne Perplexity (perplexity.ai) und melde dich an.',
      'Gehe zu Einstellungen → Konto und wähle „Export my data“ (Meine Daten exportieren).',
      'Sobald Perplexity den Export bereitstellt, lade die .zip-Datei herunter.',
      'Lade diese .zip-Datei unverändert hier hoch. Die darin enthaltene conversations-….json geht auch.',
    ],
    duckduckgo: [
      'Öffne Duck.ai (duck.ai) auf dem Gerät und im Browser, in dem du gechattet hast: Nur dort sind deine Chats gespeichert.',
      'Öffne einen Chat und nutze seine Download-Option: Sie speichert den Chat als eine Datei duck.ai_….txt.',
      'Lade diese .txt-Datei hier hoch, oder eine .zip-Datei mit mehreren davon.',
    ],
    mistral: [
      'Öffne Le Chat (chat.mistral.ai) und melde dich an.',
      'Öffne die Einstellungen, suche den Export deiner Daten und wähle Exportieren.',
      'Lade die .zip-Datei herunter (sie heißt chat-export-…).',
      'Lade diese .zip-Datei unverändert hier hoch: Sie enthält auch deine angehängten Dateien. Eine einzelne chat-….json daraus geht auch.',
    ],
    meta: [
      'Öffne die Kontenübersicht (accountscenter.meta.com oder die Einstellungen in Facebook, Instagram oder WhatsApp).',
      'Gehe zu Deine Informationen und Berechtigungen → Deine Informationen herunterladen.',
      'Wähle Meta AI, dann HTML oder JSON als Format, und erstelle die Datei.',
      'Wenn Meta meldet, dass sie bereit ist, lade die .zip-Datei herunter.',
      'Lade diese .zip-Datei unverändert hier hoch. Die darin enthaltene your_ai_conversations.html oder .json geht auch.',
    ],
  },
  waitingForExport: ({ app, hours }) =>
    `Wartest du noch auf den Export? Lass diesen Tab offen oder komm innerhalb von ${f.counted(hours, { one: '# Stunde', other: '# Stunden' })} in diesem Browser auf diesem Gerät hierher zurück: Die Seite ist dann so, wie du sie verlassen hast. Der Link von ${app} funktioniert nur einmal; ein anderer Browser oder ein anderes Gerät braucht einen neuen.`,
  uploadIt: '2. Hochladen',
  exportFile: ({ files }) => `Exportdatei (${files})`,
  upTo: ({ size }) => `Bis zu ${size}.`,
  uploadAndImport: 'Hochladen und importieren',
  uploading: 'Wird hochgeladen…',
  script: {
    tooLarge: 'Diese Datei ist zu groß, um sie hier hochzuladen.',
    progress: '{loaded} von {total} · {percent} %',
    reading: 'Wird importiert…',
    refused: 'Das Hochladen wurde abgelehnt.',
    interrupted: 'Das Hochladen wurde unterbrochen. Prüfe deine Verbindung und versuche es noch einmal.',
    busy: 'Gerade werden viele Dateien importiert. Neuer Versuch gleich…',
    starting: 'Hochladen beginnt…',
    resume:
      'Das Hochladen von {file} wurde bei {percent} % unterbrochen. Wähle dieselbe Datei noch einmal: Es geht dort weiter.',
    reconnecting: 'Die Verbindung ist abgebrochen. Das Hochladen geht weiter, sobald sie wieder da ist…',
  },

  importFailedTitle: 'Import fehlgeschlagen',
  importFailedHeading: 'Der Import hat nicht geklappt',
  tryAgain: 'Noch einmal versuchen',
  importCompleteTitle: 'Import abgeschlossen',
  importedHeading: ({ provider }) => `Deine ${provider}-Unterhaltungen sind da`,
  nowAvailable: ({ count, provider, app }) =>
    f.counted(count, {
      one: `# Unterhaltung aus ${provider} ist jetzt für ${app} verfügbar.`,
      other: `# Unterhaltungen aus ${provider} sind jetzt für ${app} verfügbar.`,
    }),
  countNew: 'Neu',
  countUpdated: 'Aktualisiert',
  countUnchanged: 'Unverändert',
  countSkipped: 'Übersprungen',
  notImported: ({ items }) => `Nicht importiert: ${items.join(', ')}.`,
  notReadCounts: {
    'design chats': ({ count }) => f.counted(count, { one: '# Design-Chat', other: '# Design-Chats' }),
    'artifact versions': ({ count }) => f.counted(count, { one: '# Artefakt-Version', other: '# Artefakt-Versionen' }),
    'feedback files': ({ count }) => f.counted(count, { one: '# Feedback-Datei', other: '# Feedback-Dateien' }),
    'account files': ({ count }) => f.counted(count, { one: '# Kontodatei', other: '# Kontodateien' }),
    'voice recordings': ({ count }) => f.counted(count, { one: '# Sprachaufnahme', other: '# Sprachaufnahmen' }),
    'chat.html pages': ({ count }) => f.counted(count, { one: '# chat.html-Seite', other: '# chat.html-Seiten' }),
    'shared conversation lists': ({ count }) =>
      f.counted(count, { one: '# Liste geteilter Unterhaltungen', other: '# Listen geteilter Unterhaltungen' }),
    projects: ({ count }) => f.counted(count, { one: '# Projekt', other: '# Projekte' }),
    tasks: ({ count }) => f.counted(count, { one: '# Aufgabe', other: '# Aufgaben' }),
    'media posts': ({ count }) => f.counted(count, { one: '# Medienbeitrag', other: '# Medienbeiträge' }),
  },
  skippedExplained:
    'Übersprungen: was nicht gelesen werden konnte, Kopien, die der Export wiederholt, und was du hier zuvor gelöscht hast — es bleibt gelöscht.',
  closeOrLater: 'Du kannst diese Seite jetzt schließen oder später einen neueren Export hochladen.',
  uploadAnother: 'Weitere Datei hochladen',

  statuses: { active: 'Verbunden', needs_reauth: 'Neuer Export nötig', revoked: 'Getrennt' },
  notices: {
    'conversation-deleted': 'Die Unterhaltung wurde gelöscht.',
    'attachment-deleted': 'Die Datei wurde gelöscht.',
    'memory-deleted': 'Die Erinnerung wurde gelöscht.',
    'project-deleted': 'Das Projekt wurde gelöscht.',
    disconnected: 'Die Verbindung wurde getrennt und ihre Unterhaltungen gelöscht.',
  },
  manageTitle: 'Deine importierten Unterhaltungen',
  nothingImported: 'Hier ist nichts: Für dich wurden keine Unterhaltungen importiert.',
  downloadHeading: 'Deine Daten herunterladen',
  downloadText: ({ app }) =>
    `Eine ZIP-Datei mit allem, was ${app} über dich gespeichert hat: jede Verbindung mit all ihren Unterhaltungen (jede Nachricht inklusive), Erinnerungen und Projekten, als JSON, dazu die Dateien und Bilder deiner Nachrichten und Projekte — zum Aufbewahren oder für einen anderen Dienst.`,
  downloadButton: 'Meine Daten herunterladen',
  deleteAllHeading: 'Alles löschen',
  deleteAllText: ({ app }) => `Entfernt alle deine importierten Unterhaltungen und Verbindungen aus ${app}.`,
  deleteAllButton: 'Alle meine Daten löschen',
  importHeading: 'Aus einem anderen Dienst importieren',
  importText: ({ app }) =>
    `Bring deine Unterhaltungen, Erinnerungen und Projekte aus einem anderen KI-Assistenten zu ${app} – oder einen neueren Export eines bereits importierten.`,
  importButton: 'Aus einem anderen Dienst importieren',
  showWholeOutput: ({ count }) => f.counted(count, { one: 'Ganze Ausgabe zeigen', other: 'Alle # Zeilen zeigen' }),
  memoryCount: ({ count }) => f.counted(count, { one: '# Erinnerung', other: '# Erinnerungen' }),
  projectCount: ({ count }) => f.counted(count, { one: '# Projekt', other: '# Projekte' }),
  besideHeading: 'Erinnerungen und Projekte',
  providerMemories: ({ provider }) => `Erinnerungen von ${provider}`,
  memoriesText: ({ provider }) => `Was sich ${provider} über dich gemerkt hat, so wie es im Export steht.`,
  providerProjects: ({ provider }) => `Projekte in ${provider}`,
  noneOnPage: 'Auf dieser Seite ist nichts.',
  accountMemory: 'Über dich',
  projectMemory: 'Projekterinnerung',
  untitledProject: 'Projekt ohne Namen',
  instructionsHeading: 'Anweisungen',
  noInstructions: 'Dieses Projekt hat keine Anweisungen.',
  knowledgeHeading: 'Wissensdateien',
  noKnowledge: 'Dieses Projekt hat keine Wissensdateien.',
  deleteMemory: 'Löschen',
  deleteMemoryLabel: ({ title }) => `Erinnerung „${title}“ löschen`,
  confirmDeleteMemory: 'Diese Erinnerung löschen?',
  confirmDeleteMemoryText: ({ title, size, app }) => `Die Erinnerung „${title}“ (${size}) wird aus ${app} gelöscht.`,
  deleteMemoryButton: 'Erinnerung löschen',
  deleteProjectHeading: 'Dieses Projekt löschen',
  deleteProjectButton: 'Projekt löschen',
  confirmDeleteProject: 'Dieses Projekt löschen?',
  confirmDeleteProjectText: ({ name, files, size, app }) =>
    `Das Projekt „${name}“, seine Anweisungen und ${f.counted(files, { one: 'seine # Wissensdatei', other: 'seine # Wissensdateien' })} (${size} insgesamt) werden aus ${app} gelöscht. Seine Unterhaltungen bleiben.`,
  staysDeleted:
    'Importierst du später denselben Export erneut, kommt es nicht zurück – außer du trennst vorher die ganze Verbindung.',

  providerConversations: ({ provider }) => `${provider}-Unterhaltungen`,
  allConnections: 'Alle Verbindungen',
  countNewestFirst: ({ count }) =>
    f.counted(count, { one: '# Unterhaltung, neueste zuerst', other: '# Unterhaltungen, neueste zuerst' }),
  noConversationsOnPage: 'Keine Unterhaltungen auf dieser Seite.',
  noConversations: 'Hier gibt es keine Unterhaltungen.',
  untitled: 'Unbenannte Unterhaltung',
  pages: 'Seiten',
  newer: 'Neuere',
  older: 'Ältere',
  pageOf: ({ page, pages }) => `Seite ${f.number(page)} von ${f.number(pages)}`,
  searchTitle: 'Unterhaltungen durchsuchen',
  searchLabel: 'Wörter in Titeln und Nachrichten',
  searchButton: 'Suchen',
  searchNone: 'Keine Unterhaltung passt.',
  searchNoMore: 'Keine weiteren Unterhaltungen passen.',
  searchMatches: ({ count }) =>
    f.counted(count, {
      one: '# Unterhaltung passt, beste Treffer zuerst',
      other: '# Unterhaltungen passen, beste Treffer zuerst',
    }),
  betterMatches: 'Bessere Treffer',
  moreMatches: 'Weitere Treffer',
  searchPageTitle: ({ q }) => `„${q}“: deine Unterhaltungen`,
  disconnectHeading: ({ provider }) => `${provider} trennen`,
  disconnectText: ({ app }) => `Löscht diese Unterhaltungen aus ${app} und beendet die Nutzung dieser Verbindung.`,
  disconnectButton: 'Trennen',

  lastUpdated: 'Zuletzt aktualisiert',
  noMessages: 'Diese Unterhaltung enthält keine Nachrichten.',
  reasoning: 'Gedankengang',
  shownAsPlainText: 'Zu lang zum Formatieren: als reiner Text angezeigt.',
  roles: { user: 'Du', assistant: 'Assistent', system: 'System', tool: 'Werkzeug' },
  attachmentsLabel: 'Dateien',
  attachmentNotStored: 'nicht im Export',
  documentCut: 'Das ist der Anfang des Textes.',
  downloadWholeText: 'Ganzen Text herunterladen',
  deleteAttachment: 'Löschen',
  deleteAttachmentLabel: ({ name }) => `${name} löschen`,
  confirmDeleteAttachment: 'Diese Datei löschen?',
  confirmDeleteAttachmentText: ({ name, app }) => `„${name}“ wird aus ${app} gelöscht. Die Unterhaltung bleibt.`,
  deleteAttachmentButton: 'Datei löschen',
  deleteConversationHeading: 'Diese Unterhaltung löschen',
  deleteConversationButton: 'Unterhaltung löschen',

  cannotBeUndone: 'Das kann nicht rückgängig gemacht werden.',
  cancel: 'Abbrechen',
  confirmDeleteConversation: 'Diese Unterhaltung löschen?',
  confirmDeleteConversationText: ({ title, app }) => `„${title}“ wird aus ${app} gelöscht.`,
  confirmDisconnect: ({ provider }) => `${provider} trennen?`,
  confirmDisconnectText: ({ count, provider, app }) =>
    f.counted(count, {
      one: `Die # ${provider}-Unterhaltung wird aus ${app} gelöscht, und die Verbindung wird als getrennt angezeigt.`,
      other: `Alle # ${provider}-Unterhaltungen werden aus ${app} gelöscht, und die Verbindung wird als getrennt angezeigt.`,
    }),
  confirmDeleteAll: 'Alle deine Daten löschen?',
  confirmDeleteAllText: ({ app }) =>
    `Alle Unterhaltungen und Verbindungen, die für dich importiert wurden, werden aus ${app} gelöscht.`,

  // What the connect start page says of the person's data.
  trustHeading: 'Deine Daten',
  trustWhatTerm: 'Was importiert wird',
  trustWhat:
    'Nur die Unterhaltungen in der Exportdatei, die du hochlädst: deine Nachrichten und die Antworten, mit Titeln und Datum, so wie der Dienst sie in die Datei geschrieben hat. Parley bekommt kein Passwort und keinen Zugang zu deinem Konto.',
  trustWhoTerm: 'Wer sie sieht',
  trustWho: ({ app }) =>
    `${app} und du. Parley speichert deine Unterhaltungen für ${app} und zeigt sie niemand anderem.`,
  trustDeleteTerm: 'Ansehen und löschen',
  trustDelete: ({ app }) =>
    `Jederzeit auf der Seite, auf der ${app} dich deine importierten Unterhaltungen verwalten lässt: lesen, einzeln löschen oder alle löschen.`,
  privacyPolicyIntro: ({ app }) => `Wie ${app} deine Daten verwendet:`,
  privacyPolicy: ({ app }) => `Datenschutzerklärung von ${app}`,

  // The upload's drop zone.
  dropZone: 'Datei auswählen oder hierher ziehen',
  fileChosen: 'Datei ausgewählt',

  importProblems: {
    notAnExport: {
      title: 'Diese Datei ist kein Export von Unterhaltungen',
      advice: ({ provider, files }) =>
        `Lade die Datei hoch, die du von ${provider} heruntergeladen hast (${files}), keinen Screenshot und kein anderes Dokument. Die Schritte auf der vorigen Seite zeigen, wie du sie bekommst.`,
    },
    otherProvider: {
      title: ({ provider }) => `Das ist kein ${provider}-Export`,
      advice: ({ provider }) =>
        `Die Datei sieht nach dem Export eines anderen Dienstes aus. Wähle den Dienst, von dem sie stammt, oder lade den Export hoch, den du von ${provider} heruntergeladen hast.`,
    },
    misexported: {
      title: ({ provider }) => `Dieser ${provider}-Export wurde mit anderen Einstellungen erstellt`,
      advice: ({ provider }) =>
        `Erstelle den Export bei ${provider} noch einmal genau wie in den Schritten auf der vorigen Seite, mit JSON als Format, und lade dann die neue Datei hoch.`,
    },
    damaged: {
      title: 'Diese Datei ist beschädigt oder unvollständig',
      advice: ({ provider }) =>
        `Vielleicht wurde sie beim Herunterladen abgeschnitten. Lade den Export erneut von ${provider} herunter und lade die neue Datei hoch.`,
    },
    tooLarge: {
      title: 'Diese Datei ist zu groß, um sie hier zu importieren',
      advice: ({ app }) => `Wende dich an den Support von ${app}: Er kann das Limit erhöhen.`,
    },
    conversationTooLarge: {
      title: 'Eine Unterhaltung in dieser Datei ist zu groß für den Import',
      advice: ({ app }) => `Wende dich an den Support von ${app}: Er kann das Limit erhöhen.`,
    },
    conflict: {
      title: 'Gleichzeitig lief ein anderer Import',
      advice: 'Aus dieser Datei wurde nichts importiert. Lade sie noch einmal hoch.',
    },
    failed: {
      title: 'Bei uns ist etwas schiefgegangen',
      advice: ({ app }) =>
        `Es wurde nichts importiert. Versuche es in ein paar Minuten noch einmal; wenn es wieder passiert, wende dich an den Support von ${app}.`,
    },
  },
  nothingNewHeading: ({ provider }) => `Nichts Neues in diesem ${provider}-Export`,
  nothingNewText: ({ provider }) =>
    `Alles darin war schon importiert. Für neuere Unterhaltungen erstelle einen neuen Export bei ${provider} und lade ihn hoch.`,

  // A page of a session this browser never opened.
  noSessionTitle: 'Öffne diese Seite über die App',
  noSessionAdvice: `Diese Seite funktioniert nur, nachdem du einen Link geöffnet hast, den dir die App gibt, und dieser Browser hat noch keinen geöffnet. ${askAgain}`,
  connectSessionEnded: ({ hours }) =>
    `Diese Seite bleibt ${f.counted(hours, { one: '# Stunde', other: '# Stunden' })} lang offen, nachdem du sie zum ersten Mal geöffnet hast, und diese Zeit ist vorbei. ${askAgain}`,

  // The manage pages' rows, times and notices.
  connectionsHeading: 'Deine Verbindungen',
  conversationCount: ({ count }) => f.counted(count, { one: '# Unterhaltung', other: '# Unterhaltungen' }),
  updatedAgo: ({ when }) => `aktualisiert: ${when}`,
  disconnectedRow: 'Getrennt · ihre Unterhaltungen wurden gelöscht',
  revokedText: ({ app }) =>
    `Diese Verbindung wurde getrennt und ihre Unterhaltungen wurden gelöscht. Um sie zurückzuholen, starte einen neuen Import in ${app}.`,
  allDeletedHeading: 'Alles wurde gelöscht',
  allDeletedText: ({ connections, conversations, app }) =>
    `${f.counted(connections, { one: '# Verbindung', other: '# Verbindungen' })} und ${f.counted(conversations, { one: '# Unterhaltung', other: '# Unterhaltungen' })} wurden gelöscht. ${app} hat jetzt keine deiner Unterhaltungen mehr.`,
  accessHeading: 'Wer deine Unterhaltungen gelesen hat',
  accessNone: ({ app }) =>
    `In den letzten 30 Tagen haben weder ${app} noch sein Assistent deine Unterhaltungen gelesen.`,
  accessServer: ({ app, days }) =>
    `In den letzten 30 Tagen hat der Server von ${app} deine Unterhaltungen an ${f.counted(days, { one: '# Tag', other: '# Tagen' })} gelesen.`,
  accessAgent: ({ app, reads, searches }) =>
    `Der Assistent von ${app} hat sie ${f.counted(reads, { one: '# Mal', other: '# Mal' })} gelesen und ${f.counted(searches, { one: '# Mal', other: '# Mal' })} durchsucht.`,
  backToTop: 'Nach oben',
  copyCode: 'Kopieren',
  codeCopied: 'Kopiert',
  code: 'Code',

  // The way back to the app, its brand on the pages, and a manage link opened by a preview.
  returnTo: ({ app }) => `Zurück zu ${app}`,
  securedBy: 'Gesichert von Parley',
  openTitle: 'Deine Unterhaltungen öffnen',
  openHeading: ({ app }) => `Deine mit ${app} geteilten Unterhaltungen`,
  openText: 'Öffne die Seite, um sie anzusehen, herunterzuladen oder zu löschen.',
  openButton: 'Öffnen',
};
