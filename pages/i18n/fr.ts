import type { Messages } from './en.ts';
import { formatters, localeBasics } from './format.ts';

const f = formatters('fr');
const askAgain =
  'Retournez dans l’application d’où vous venez et rouvrez cette page : elle vous donnera un nouveau lien.';
const zipHere = 'Importez ce .zip ici tel quel. Le fichier conversations.json qu’il contient convient aussi.';

export const fr: Messages = {
  ...localeBasics('fr'),

  theAppYouCameFrom: 'l’application d’où vous venez',
  footer: ({ app }) => `Vos conversations sont conservées pour ${app} et ne sont montrées qu’à vous et à elle.`,
  unknownTime: 'inconnue',

  errorStatus: ({ status }) => `Erreur ${status}`,
  errors: {
    missingAuthorization: 'En-tête Authorization manquant',
    invalidApiKey: 'Clé d’API non valide',
    invalidAgentToken: 'Jeton d’agent non valide',
    invalidMetricsToken: 'Jeton de métriques non valide',
    originNotAllowed: 'Origine non autorisée : définissez MCP_ALLOWED_ORIGINS',
    missingUserRef: 'Paramètre userRef manquant',
    invalidUserRef: 'Paramètre userRef non valide',
    missingConnectionId: 'Paramètre connectionId manquant',
    invalidLimit: 'Paramètre limit non valide',
    invalidOffset: 'Paramètre offset non valide',
    invalidUpdatedSince: 'Paramètre updatedSince non valide',
    invalidQ: 'Paramètre q non valide',
    invalidFields: 'Paramètre fields non valide',
    invalidExpiresInSeconds: 'Paramètre expiresInSeconds non valide',
    invalidJsonBody: 'Corps JSON non valide',
    purgeTarget: 'Indiquez soit userRef, soit connectionId',
    unrecognizedExport: 'Format d’export non reconnu',
    invalidExport: 'Fichier d’export non valide',
    fileNotAnExport: 'Fichier d’export non valide',
    misexportedExport: 'Fichier d’export non valide',
    invalidProvider: 'Service non valide',
    invalidTimeZone: 'Fuseau horaire non valide',
    userNotFound: 'Personne introuvable',
    connectionNotFound: 'Connexion introuvable',
    conversationNotFound: 'Conversation introuvable',
    attachmentNotFound: 'Pièce jointe introuvable',
    memoryNotFound: 'Souvenir introuvable',
    projectNotFound: 'Projet introuvable',
    notFound: 'Introuvable',
    methodNotAllowed: 'Méthode non autorisée',
    requestTimeout: 'Délai de la requête dépassé',
    connectionRevoked: 'Connexion révoquée',
    importConflict: 'Conflit d’import : la connexion a changé pendant l’envoi, renvoyez le fichier',
    exportTooLarge: 'Fichier d’export trop volumineux',
    conversationTooLarge: 'Fichier d’export trop volumineux : une conversation',
    expandedTooLarge: 'Fichier d’export trop volumineux une fois décompressé',
    attachmentTooLarge: 'Fichier d’export trop volumineux : un des fichiers qu’il contient',
    tooManyRecords: 'Fichier d’export trop volumineux : trop d’enregistrements',
    bodyTooLarge: 'Corps de la requête trop volumineux',
    unsupportedContentType: 'Type de contenu non pris en charge',
    rangeNotSatisfiable: 'Plage non satisfaisable',
    rateLimited: 'Trop de requêtes',
    internal: 'Erreur interne du serveur',
    databaseBusy: 'Base de données occupée : réessayez dans un instant',
    importsBusy: 'Trop d’imports en même temps : réessayez dans un instant',
    missingLink: 'Lien manquant',
    invalidLink: 'Lien non valide',
    appNotFound: 'Application introuvable',
    keyNotFound: 'Clé introuvable',
    deliveryNotFound: 'Envoi introuvable',
    invalidWebhookUrl: 'URL de webhook non valide',
    webhookUrlCredentials: 'URL de webhook non valide',
    privateWebhookUrl: 'URL de webhook non valide',
    invalidDeliveryStatus: 'Statut non valide',
    linkExpired: 'Lien expiré',
    invalidLinkLifetime: 'Durée de validité du lien non valide',
    wrongLinkPurpose: 'Lien destiné à une autre page',
    forbiddenScope: 'Accès non autorisé',
    linkAlreadyUsed: 'Lien déjà utilisé',
    sessionExpired: 'Session expirée',
    invalidCsrf: 'Jeton de formulaire non valide',
    invalidReturnUrl: 'returnUrl non valide',
    returnUrlNotAllowed: 'returnUrl non valide',
    invalidReturnOrigin: 'Origine de retour non valide',
    invalidDisplayName: 'Nom affiché non valide',
    invalidAccentColor: 'Couleur d’accent non valide',
    accentColorTooLight: 'Couleur d’accent trop claire',
    invalidPrivacyUrl: 'URL de politique de confidentialité non valide',
    invalidLogo: 'Logo non valide',
    logoTooLarge: 'Logo trop volumineux',
    importPurged: 'Import refusé : les données de cette personne ont été supprimées pendant l’envoi',
    userStorageFull: 'L’import dépasserait la limite de stockage : par personne',
    appStorageFull: 'L’import dépasserait la limite de stockage : de l’application',
    uploadNotFound: 'Envoi introuvable',
    uploadNotComplete: 'Envoi incomplet',
    uploadImporting: 'L’envoi est déjà en cours d’import : le résultat va suivre',
    tooManyOpenUploads: 'Trop d’envois en cours',
    uploadOffsetMismatch: 'Upload-Offset ne correspond pas aux octets reçus',
    invalidUploadLength: 'En-tête Upload-Length invalide',
    invalidUploadOffset: 'En-tête Upload-Offset invalide',
    invalidUploadMetadata: 'En-tête Upload-Metadata invalide',
    unsupportedTusVersion: 'Version Tus-Resumable non prise en charge : utilisez 1.0.0',
  },
  askAgain,
  advice: {
    missingLink: `Cette page ne s’ouvre que depuis un lien fourni par l’application. ${askAgain}`,
    invalidLink: `Ce lien est abîmé ou n’est pas destiné à ce service. ${askAgain}`,
    appNotFound: 'L’application qui a créé ce lien n’est pas enregistrée ici. Contactez son support.',
    linkExpired: `Ce lien a expiré : l’application crée des liens valables peu de temps. ${askAgain}`,
    invalidLinkLifetime: `Ce lien a été créé pour durer trop longtemps ; il n’est donc pas accepté. ${askAgain}`,
    wrongLinkPurpose: `Ce lien est destiné à une autre page. ${askAgain}`,
    forbiddenScope: 'Ce lien demande un accès que l’application n’a pas le droit d’avoir. Contactez son support.',
    linkAlreadyUsed: `Chaque lien ne fonctionne qu’une fois, et celui-ci a déjà servi. ${askAgain}`,
    sessionExpired: `Votre session ici est terminée : elle se ferme après 30 minutes d’inactivité. ${askAgain}`,
    invalidCsrf: 'Ce formulaire n’était plus à jour. Revenez en arrière, rechargez la page et réessayez.',
    connectionNotFound: 'Cette connexion n’existe pas ou a été supprimée.',
    conversationNotFound: 'Cette conversation n’existe pas ou a été supprimée.',
    attachmentNotFound: 'Ce fichier n’existe pas ou a été supprimé.',
    memoryNotFound: 'Ce souvenir n’existe pas ou a été supprimé.',
    projectNotFound: 'Ce projet n’existe pas ou a été supprimé.',
    returnUrlNotAllowed:
      'Ce lien vous renverrait vers une adresse que l’application n’a pas enregistrée : il n’est donc pas accepté. Contactez son support.',
    bodyTooLarge:
      'Le formulaire était plus grand que ce que cette page accepte. Revenez en arrière, rechargez la page et réessayez.',
    requestTimeout: 'Les données sont arrivées trop lentement. Vérifiez votre connexion et réessayez.',
    importsBusy:
      'Beaucoup de fichiers sont en cours d’import. Patientez un instant, puis envoyez à nouveau votre fichier.',
  },

  startTitle: 'Importer vos conversations',
  startHeading: ({ app }) => `${app} souhaite importer vos conversations avec l’IA`,
  startIntro: ({ services }) => `Vous pouvez importer votre historique de ${services}. Voici comment cela se passe :`,
  startSteps: ({ app }) => [
    'Vous choisissez le service et y téléchargez l’export de vos données.',
    'Vous envoyez ce fichier ici. Parley y lit vos conversations.',
    `${app} peut ensuite lire ces conversations. Vous pouvez les consulter et les supprimer à tout moment.`,
  ],
  continue: 'Continuer',
  linkWorksOnce: 'Ce lien ne fonctionne qu’une fois, et peu de temps.',

  chooseTitle: 'Choisir un service',
  chooseHeading: 'Où sont vos conversations ?',
  chooseAnother: 'Choisir un autre service',
  notListed: 'Mon assistant n’est pas dans la liste',
  notListedTitle: 'Votre assistant n’est pas dans la liste',
  parleyReads: 'Parley lit les exports de ces assistants :',
  notListedAsk: ({ app }) =>
    `Dites à ${app} quel assistant vous utilisez, pour qu’il puisse demander son ajout. Aucun fichier n’est envoyé depuis cette page.`,
  otherProviderFound: {
    title: ({ found }) => `C’est un export ${found}`,
    advice: ({ provider, found }) =>
      `Vous avez choisi ${provider}, mais ce fichier est un export de ${found}. L’importer comme ${found} ?`,
  },
  importAs: ({ provider }) => `Importer comme ${provider}`,

  importFrom: ({ provider }) => `Importer depuis ${provider}`,
  getExport: '1. Obtenez votre export',
  providerSteps: {
    openai: [
      'Ouvrez ChatGPT (chatgpt.com ou l’application) et connectez-vous.',
      'Allez dans Paramètres → Gestion des données → Exporter les données, puis choisissez Exporter.',
      'ChatGPT vous envoie un lien de téléchargement par e-mail, en général en quelques minutes (parfois plus). Téléchargez le fichier .zip.',
      zipHere,
    ],
    anthropic: [
      'Ouvrez Claude (claude.ai) et connectez-vous.',
      'Allez dans Paramètres → Confidentialité → Exporter les données.',
      'Claude vous envoie un lien de téléchargement par e-mail. Téléchargez le fichier .zip.',
      zipHere,
    ],
    google: [
      'Ouvrez Google Takeout (takeout.google.com) et connectez-vous.',
      'Choisissez « Tout désélectionner », puis cochez Mon activité.',
      'Sous Mon activité, ouvrez « Toutes les données d’activité incluses » et gardez seulement Applis Gemini ; ouvrez « Plusieurs formats » et choisissez JSON.',
      'Créez l’export et téléchargez le fichier .zip quand Google indique qu’il est prêt.',
      'Importez ce .zip ici tel quel. Son fichier MonActivité.json (dans Mon activité → Applis Gemini) convient aussi.',
    ],
    microsoft: [
      'Ouvrez le tableau de bord de confidentialité Microsoft (account.microsoft.com/privacy) et connectez-vous.',
      'Trouvez l’historique d’activité Copilot et téléchargez-le.',
      'Importez ici le fichier copilot-activity-history.csv, ou le .zip qui le contient.',
    ],
    xai: [
      'Connectez-vous à votre compte xAI (accounts.x.ai), celui que vous utilisez pour Grok.',
      'Demandez-y le téléchargement de vos données.',
      'Quand xAI vous prévient qu’il est prêt, téléchargez le fichier .zip.',
      'Importez ce .zip ici tel quel. Le fichier prod-grok-backend.json qu’il contient convient aussi.',
    ],
    deepseek: [
      'Ouvrez DeepSeek (chat.deepseek.com) et connectez-vous.',
      'Allez dans Paramètres → Gestion des données → Exporter, et exportez tout votre historique.',
      'Téléchargez le fichier .zip.',
      zipHere,
    ],
    perplexity: [
      'Ouvrez Perplexity (perplexity.ai) et connectez-vous.',
      'Allez dans Paramètres → Compte et choisissez « Export my data » (Exporter mes données).',
      'Quand Perplexity indique que l’export est prêt, téléchargez le fichier .zip.',
      'Importez ce .zip ici tel quel. Le fichier conversations-….json qu’il contient fonctionne aussi.',
    ],
    duckduckgo: [
      'Ouvrez Duck.ai (duck.ai) sur l’appareil et le navigateur où vous avez discuté : vos conversations ne sont gardées que là.',
      'Ouvrez une conversation et utilisez son option de téléchargement : elle l’enregistre dans un fichier duck.ai_….txt.',
      'Importez ce fichier .txt ici, ou un .zip qui en contient plusieurs.',
    ],
    mistral: [
      'Ouvrez Le Chat (chat.mistral.ai) et connectez-vous.',
      'Ouvrez les Paramètres, trouvez l’export de vos données et choisissez Exporter.',
      'Téléchargez le fichier .zip (nommé chat-export-…).',
      'Importez ce .zip ici tel quel : il contient aussi les fichiers que vous avez joints. Un seul fichier chat-….json qu’il contient convient aussi.',
    ],
    meta: [
      'Ouvrez l’Espace Comptes (accountscenter.meta.com, ou les Paramètres de Facebook, Instagram ou WhatsApp).',
      'Allez dans Vos informations et autorisations → Télécharger vos informations.',
      'Choisissez Meta AI, puis le format HTML ou JSON, et créez le fichier.',
      'Quand Meta vous prévient qu’il est prêt, téléchargez le fichier .zip.',
      'Importez ce .zip ici tel quel. Le fichier your_ai_conversations.html ou .json qu’il contient convient aussi.',
    ],
  },
  waitingForExport: ({ app, hours }) =>
    `Vous attendez l’export ? Gardez cet onglet ouvert, ou revenez sur cette page dans ce navigateur et sur cet appareil d’ici ${f.counted(hours, { one: '# heure', other: '# heures' })} : vous la retrouverez telle que vous l’avez laissée. Le lien de ${app} ne fonctionne qu’une fois : un autre navigateur ou appareil a besoin d’un nouveau lien.`,
  uploadIt: '2. Envoyez-le',
  exportFile: ({ files }) => `Fichier d’export (${files})`,
  upTo: ({ size }) => `Jusqu’à ${size}.`,
  uploadAndImport: 'Envoyer et importer',
  uploading: 'Envoi en cours…',
  script: {
    tooLarge: 'Ce fichier est trop volumineux pour être envoyé ici.',
    progress: '{loaded} sur {total} · {percent} %',
    reading: 'Importation…',
    refused: 'L’envoi a été refusé.',
    interrupted: 'L’envoi a été interrompu. Vérifiez votre connexion et réessayez.',
    busy: 'Beaucoup de fichiers sont en cours d’import. Nouvel essai dans un instant…',
    starting: 'Début de l’envoi…',
    resume:
      'L’envoi de {file} s’est interrompu à {percent} %. Choisissez à nouveau le même fichier : il reprendra là où il s’est arrêté.',
    reconnecting: 'La connexion a été coupée. L’envoi reprendra dès qu’elle sera rétablie…',
  },

  importFailedTitle: 'Échec de l’import',
  importFailedHeading: 'L’import n’a pas fonctionné',
  tryAgain: 'Réessayer',
  importCompleteTitle: 'Import terminé',
  importedHeading: ({ provider }) => `Vos conversations ${provider} sont importées`,
  nowAvailable: ({ count, provider, app }) =>
    f.counted(count, {
      one: `# conversation de ${provider} est maintenant disponible pour ${app}.`,
      other: `# conversations de ${provider} sont maintenant disponibles pour ${app}.`,
    }),
  countNew: 'Nouvelles',
  countUpdated: 'Mises à jour',
  countUnchanged: 'Inchangées',
  countSkipped: 'Ignorées',
  notImported: ({ items }) => `Non importé : ${items.join(', ')}.`,
  notReadCounts: {
    'design chats': ({ count }) =>
      f.counted(count, { one: '# discussion de design', other: '# discussions de design' }),
    'artifact versions': ({ count }) =>
      f.counted(count, { one: '# version d’artefact', other: '# versions d’artefacts' }),
    'feedback files': ({ count }) => f.counted(count, { one: '# fichier d’avis', other: '# fichiers d’avis' }),
    'account files': ({ count }) => f.counted(count, { one: '# fichier de compte', other: '# fichiers de compte' }),
    'voice recordings': ({ count }) =>
      f.counted(count, { one: '# enregistrement vocal', other: '# enregistrements vocaux' }),
    'chat.html pages': ({ count }) => f.counted(count, { one: '# page chat.html', other: '# pages chat.html' }),
    'shared conversation lists': ({ count }) =>
      f.counted(count, { one: '# liste de conversations partagées', other: '# listes de conversations partagées' }),
    projects: ({ count }) => f.counted(count, { one: '# projet', other: '# projets' }),
    tasks: ({ count }) => f.counted(count, { one: '# tâche', other: '# tâches' }),
    'media posts': ({ count }) => f.counted(count, { one: '# publication média', other: '# publications média' }),
  },
  skippedExplained:
    'Ignorées : ce qui n’a pas pu être lu, les copies que l’export répète, et ce que vous avez supprimé ici auparavant — cela reste supprimé.',
  closeOrLater: 'Vous pouvez fermer cette page, ou envoyer plus tard un export plus récent.',
  uploadAnother: 'Envoyer un autre fichier',

  statuses: { active: 'Connecté', needs_reauth: 'Nouvel export nécessaire', revoked: 'Déconnecté' },
  notices: {
    'conversation-deleted': 'La conversation a été supprimée.',
    'attachment-deleted': 'Le fichier a été supprimé.',
    'memory-deleted': 'Le souvenir a été supprimé.',
    'project-deleted': 'Le projet a été supprimé.',
    disconnected: 'La connexion a été déconnectée et ses conversations supprimées.',
  },
  manageTitle: 'Vos conversations importées',
  nothingImported: 'Il n’y a rien ici : aucune conversation n’a été importée pour vous.',
  downloadHeading: 'Télécharger vos données',
  downloadText: ({ app }) =>
    `Un fichier ZIP avec tout ce que ${app} conserve pour vous : chaque connexion avec toutes ses conversations (chaque message compris), ses souvenirs et ses projets, en JSON, et les fichiers et images de vos messages et projets — à garder, ou à emporter vers un autre service.`,
  downloadButton: 'Télécharger mes données',
  deleteAllHeading: 'Tout supprimer',
  deleteAllText: ({ app }) => `Retire de ${app} toutes vos conversations et connexions importées.`,
  deleteAllButton: 'Supprimer toutes mes données',
  importHeading: 'Importer depuis un autre service',
  importText: ({ app }) =>
    `Apportez à ${app} vos conversations, souvenirs et projets d’un autre assistant IA, ou un export plus récent d’un service déjà importé.`,
  importButton: 'Importer depuis un autre service',
  showWholeOutput: ({ count }) => f.counted(count, { one: 'Afficher toute la sortie', other: 'Afficher les # lignes' }),
  memoryCount: ({ count }) => f.counted(count, { one: '# souvenir', other: '# souvenirs' }),
  projectCount: ({ count }) => f.counted(count, { one: '# projet', other: '# projets' }),
  besideHeading: 'Souvenirs et projets',
  providerMemories: ({ provider }) => `Souvenirs de ${provider}`,
  memoriesText: ({ provider }) => `Ce que ${provider} avait retenu de vous, tel que son export le contient.`,
  providerProjects: ({ provider }) => `Projets de ${provider}`,
  noneOnPage: 'Rien sur cette page.',
  accountMemory: 'À votre sujet',
  projectMemory: 'Souvenir du projet',
  untitledProject: 'Projet sans nom',
  instructionsHeading: 'Instructions',
  noInstructions: 'Ce projet n’a pas d’instructions.',
  knowledgeHeading: 'Fichiers de connaissances',
  noKnowledge: 'Ce projet n’a pas de fichiers de connaissances.',
  deleteMemory: 'Supprimer',
  deleteMemoryLabel: ({ title }) => `Supprimer le souvenir « ${title} »`,
  confirmDeleteMemory: 'Supprimer ce souvenir ?',
  confirmDeleteMemoryText: ({ title, size, app }) => `Le souvenir « ${title} » (${size}) sera supprimé de ${app}.`,
  deleteMemoryButton: 'Supprimer le souvenir',
  deleteProjectHeading: 'Supprimer ce projet',
  deleteProjectButton: 'Supprimer le projet',
  confirmDeleteProject: 'Supprimer ce projet ?',
  confirmDeleteProjectText: ({ name, files, size, app }) =>
    `Le projet « ${name} », ses instructions et ${f.counted(files, { one: 'son # fichier de connaissances', other: 'ses # fichiers de connaissances' })} (${size} au total) seront supprimés de ${app}. Ses conversations restent.`,
  staysDeleted:
    'Importer plus tard le même export ne le fera pas revenir, sauf si vous déconnectez d’abord toute la connexion.',

  providerConversations: ({ provider }) => `Conversations ${provider}`,
  allConnections: 'Toutes les connexions',
  countNewestFirst: ({ count }) =>
    f.counted(count, {
      one: '# conversation, la plus récente d’abord',
      other: '# conversations, les plus récentes d’abord',
    }),
  noConversationsOnPage: 'Aucune conversation sur cette page.',
  noConversations: 'Aucune conversation ici.',
  untitled: 'Conversation sans titre',
  pages: 'Pages',
  newer: 'Plus récentes',
  older: 'Plus anciennes',
  pageOf: ({ page, pages }) => `Page ${f.number(page)} sur ${f.number(pages)}`,
  searchTitle: 'Rechercher dans vos conversations',
  searchLabel: 'Mots à trouver dans les titres et les messages',
  searchButton: 'Rechercher',
  searchNone: 'Aucune conversation ne correspond.',
  searchNoMore: 'Plus aucune conversation ne correspond.',
  searchMatches: ({ count }) =>
    f.counted(count, {
      one: '# conversation correspond, la plus pertinente d’abord',
      other: '# conversations correspondent, les plus pertinentes d’abord',
    }),
  betterMatches: 'Plus pertinentes',
  moreMatches: 'Autres résultats',
  searchPageTitle: ({ q }) => `« ${q} » : vos conversations`,
  disconnectHeading: ({ provider }) => `Déconnecter ${provider}`,
  disconnectText: ({ app }) => `Supprime ces conversations de ${app} et cesse d’utiliser cette connexion.`,
  disconnectButton: 'Déconnecter',

  lastUpdated: 'Dernière mise à jour :',
  noMessages: 'Cette conversation ne contient aucun message.',
  reasoning: 'Raisonnement',
  shownAsPlainText: 'Trop long pour être mis en forme ici : affiché en texte brut.',
  roles: { user: 'Vous', assistant: 'Assistant', system: 'Système', tool: 'Outil' },
  attachmentsLabel: 'Fichiers',
  attachmentNotStored: 'absent de l’export',
  documentCut: 'Ceci est le début du texte.',
  downloadWholeText: 'Télécharger le texte entier',
  deleteAttachment: 'Supprimer',
  deleteAttachmentLabel: ({ name }) => `Supprimer ${name}`,
  confirmDeleteAttachment: 'Supprimer ce fichier ?',
  confirmDeleteAttachmentText: ({ name, app }) => `« ${name} » sera supprimé de ${app}. La conversation reste.`,
  deleteAttachmentButton: 'Supprimer le fichier',
  deleteConversationHeading: 'Supprimer cette conversation',
  deleteConversationButton: 'Supprimer la conversation',

  cannotBeUndone: 'Cette action est irréversible.',
  cancel: 'Annuler',
  confirmDeleteConversation: 'Supprimer cette conversation ?',
  confirmDeleteConversationText: ({ title, app }) => `« ${title} » sera supprimée de ${app}.`,
  confirmDisconnect: ({ provider }) => `Déconnecter ${provider} ?`,
  confirmDisconnectText: ({ count, provider, app }) =>
    f.counted(count, {
      one: `La # conversation ${provider} sera supprimée de ${app}, et la connexion apparaîtra comme déconnectée.`,
      other: `Les # conversations ${provider} seront supprimées de ${app}, et la connexion apparaîtra comme déconnectée.`,
    }),
  confirmDeleteAll: 'Supprimer toutes vos données ?',
  confirmDeleteAllText: ({ app }) =>
    `Toutes les conversations et connexions importées pour vous seront supprimées de ${app}.`,

  // What the connect start page says of the person's data.
  trustHeading: 'Vos données',
  trustWhatTerm: 'Ce qui est importé',
  trustWhat:
    'Uniquement les conversations du fichier d’export que vous envoyez : vos messages et les réponses, avec leurs titres et leurs dates, tels que le service les a écrits dans le fichier. Parley ne reçoit aucun mot de passe et aucun accès à votre compte.',
  trustWhoTerm: 'Qui les voit',
  trustWho: ({ app }) =>
    `${app}, et vous. Parley conserve vos conversations pour ${app} et ne les montre à personne d’autre.`,
  trustDeleteTerm: 'Consulter et supprimer',
  trustDelete: ({ app }) =>
    `À tout moment, sur la page où ${app} vous permet de gérer vos conversations importées : les lire, en supprimer une ou les supprimer toutes.`,
  privacyPolicyIntro: ({ app }) => `Comment ${app} utilise vos données :`,
  privacyPolicy: ({ app }) => `politique de confidentialité de ${app}`,

  // The upload's drop zone.
  dropZone: 'Choisissez un fichier ou déposez-le ici',
  fileChosen: 'Fichier choisi',

  importProblems: {
    notAnExport: {
      title: 'Ce fichier n’est pas un export de conversations',
      advice: ({ provider, files }) =>
        `Envoyez le fichier téléchargé depuis ${provider} (${files}), pas une capture d’écran ni un autre document. Les étapes de la page précédente expliquent comment l’obtenir.`,
    },
    otherProvider: {
      title: ({ provider }) => `Ce n’est pas un export ${provider}`,
      advice: ({ provider }) =>
        `Il semble venir d’un autre service. Choisissez le service d’où vient le fichier, ou envoyez l’export téléchargé depuis ${provider}.`,
    },
    misexported: {
      title: ({ provider }) => `Cet export ${provider} a été fait avec d’autres réglages`,
      advice: ({ provider }) =>
        `Refaites l’export depuis ${provider} exactement comme le décrivent les étapes de la page précédente, en choisissant le format JSON, puis envoyez le nouveau fichier.`,
    },
    damaged: {
      title: 'Ce fichier est abîmé ou incomplet',
      advice: ({ provider }) =>
        `Il a peut-être été coupé pendant le téléchargement. Téléchargez à nouveau l’export depuis ${provider} et envoyez le nouveau fichier.`,
    },
    tooLarge: {
      title: 'Ce fichier est trop volumineux pour être importé ici',
      advice: ({ app }) => `Contactez le support de ${app} : il peut relever la limite.`,
    },
    conversationTooLarge: {
      title: 'Une conversation de ce fichier est trop volumineuse pour être importée',
      advice: ({ app }) => `Contactez le support de ${app} : il peut relever la limite.`,
    },
    conflict: {
      title: 'Un autre import était en cours au même moment',
      advice: 'Rien n’a été importé depuis ce fichier. Envoyez-le à nouveau.',
    },
    failed: {
      title: 'Un problème est survenu de notre côté',
      advice: ({ app }) =>
        `Rien n’a été importé. Réessayez dans quelques minutes ; si cela se reproduit, contactez le support de ${app}.`,
    },
  },
  nothingNewHeading: ({ provider }) => `Rien de nouveau dans cet export ${provider}`,
  nothingNewText: ({ provider }) =>
    `Tout son contenu était déjà importé. Pour ajouter des conversations plus récentes, faites un nouvel export depuis ${provider} et envoyez-le.`,

  // A page of a session this browser never opened.
  noSessionTitle: 'Ouvrez cette page depuis l’application',
  noSessionAdvice: `Cette page ne fonctionne qu’après l’ouverture d’un lien fourni par l’application, et ce navigateur n’en a ouvert aucun. ${askAgain}`,
  connectSessionEnded: ({ hours }) =>
    `Cette page reste ouverte ${f.counted(hours, { one: '# heure', other: '# heures' })} après sa première ouverture, et ce délai est passé. ${askAgain}`,

  // The manage pages' rows, times and notices.
  connectionsHeading: 'Vos connexions',
  conversationCount: ({ count }) => f.counted(count, { one: '# conversation', other: '# conversations' }),
  updatedAgo: ({ when }) => `mis à jour ${when}`,
  disconnectedRow: 'Déconnecté · ses conversations ont été supprimées',
  revokedText: ({ app }) =>
    `Cette connexion a été déconnectée et ses conversations supprimées. Pour les retrouver, lancez un nouvel import depuis ${app}.`,
  allDeletedHeading: 'Tout a été supprimé',
  allDeletedText: ({ connections, conversations, app }) =>
    `${f.counted(connections, { one: '# connexion', other: '# connexions' })} et ${f.counted(conversations, { one: '# conversation', other: '# conversations' })} ont été supprimées. ${app} ne détient plus aucune de vos conversations.`,
  accessHeading: 'Qui a lu vos conversations',
  accessNone: ({ app }) => `Ces 30 derniers jours, ni ${app} ni son assistant n’ont lu vos conversations.`,
  accessServer: ({ app, days }) =>
    `Ces 30 derniers jours, le serveur de ${app} a lu vos conversations ${f.counted(days, { one: '# jour', other: '# jours' })}.`,
  accessAgent: ({ app, reads, searches }) =>
    `L’assistant de ${app} les a lues ${f.counted(reads, { one: '# fois', other: '# fois' })} et y a cherché ${f.counted(searches, { one: '# fois', other: '# fois' })}.`,
  backToTop: 'Haut de page',
  copyCode: 'Copier',
  codeCopied: 'Copié',
  code: 'Code',

  // The way back to the app, its brand on the pages, and a manage link opened by a preview.
  returnTo: ({ app }) => `Revenir à ${app}`,
  securedBy: 'Sécurisé par Parley',
  openTitle: 'Ouvrir vos conversations',
  openHeading: ({ app }) => `Vos conversations partagées avec ${app}`,
  openText: 'Ouvrez la page pour les consulter, les télécharger ou les supprimer.',
  openButton: 'Ouvrir',
};
