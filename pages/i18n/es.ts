import type { Messages } from './en.ts';
import { formatters, localeBasics } from './format.ts';

const f = formatters('es');
const askAgain = 'Vuelve a la app de la que vienes y abre esta página de nuevo: te dará un enlace nuevo.';
const zipHere = 'Sube ese .zip aquí tal cual. También sirve el archivo conversations.json que contiene.';

export const es: Messages = {
  ...localeBasics('es'),

  theAppYouCameFrom: 'la app de la que vienes',
  footer: ({ app }) => `Tus conversaciones se guardan para ${app} y solo se muestran a ti y a ella.`,
  unknownTime: 'desconocida',

  errorStatus: ({ status }) => `Error ${status}`,
  errors: {
    missingAuthorization: 'Falta la cabecera Authorization',
    invalidApiKey: 'Clave de API no válida',
    invalidAgentToken: 'Token de agente no válido',
    invalidMetricsToken: 'Token de métricas no válido',
    originNotAllowed: 'Origen no permitido: defina MCP_ALLOWED_ORIGINS',
    missingUserRef: 'Falta el parámetro userRef',
    invalidUserRef: 'Parámetro userRef no válido',
    missingConnectionId: 'Falta el parámetro connectionId',
    invalidLimit: 'Parámetro limit no válido',
    invalidOffset: 'Parámetro offset no válido',
    invalidUpdatedSince: 'Parámetro updatedSince no válido',
    invalidQ: 'Parámetro q no válido',
    invalidFields: 'Parámetro fields no válido',
    invalidExpiresInSeconds: 'Parámetro expiresInSeconds no válido',
    invalidJsonBody: 'Cuerpo JSON no válido',
    purgeTarget: 'Indica solo uno: userRef o connectionId',
    unrecognizedExport: 'Formato de exportación no reconocido',
    invalidExport: 'Archivo de exportación no válido',
    fileNotAnExport: 'Archivo de exportación no válido',
    misexportedExport: 'Archivo de exportación no válido',
    invalidProvider: 'Servicio no válido',
    invalidTimeZone: 'Zona horaria no válida',
    userNotFound: 'Persona no encontrada',
    connectionNotFound: 'Conexión no encontrada',
    conversationNotFound: 'Conversación no encontrada',
    attachmentNotFound: 'Adjunto no encontrado',
    memoryNotFound: 'Recuerdo no encontrado',
    projectNotFound: 'Proyecto no encontrado',
    notFound: 'No encontrado',
    methodNotAllowed: 'Método no permitido',
    requestTimeout: 'Tiempo de espera de la solicitud agotado',
    connectionRevoked: 'La conexión está revocada',
    importConflict: 'Conflicto de importación: la conexión cambió durante la subida; envía el archivo otra vez',
    exportTooLarge: 'Archivo de exportación demasiado grande',
    conversationTooLarge: 'Archivo de exportación demasiado grande: una conversación',
    expandedTooLarge: 'Archivo de exportación demasiado grande al descomprimirlo',
    attachmentTooLarge: 'Archivo de exportación demasiado grande: uno de sus archivos',
    tooManyRecords: 'Archivo de exportación demasiado grande: demasiados registros',
    bodyTooLarge: 'Cuerpo de la solicitud demasiado grande',
    unsupportedContentType: 'Tipo de contenido no admitido',
    rangeNotSatisfiable: 'Rango no satisfacible',
    rateLimited: 'Demasiadas solicitudes',
    internal: 'Error interno del servidor',
    databaseBusy: 'Base de datos ocupada: vuelve a intentarlo en un momento',
    importsBusy: 'Demasiadas importaciones a la vez: inténtalo de nuevo en un momento',
    missingLink: 'Falta el enlace',
    invalidLink: 'Enlace no válido',
    appNotFound: 'App no encontrada',
    keyNotFound: 'Clave no encontrada',
    deliveryNotFound: 'Entrega no encontrada',
    invalidWebhookUrl: 'URL de webhook no válida',
    webhookUrlCredentials: 'URL de webhook no válida',
    privateWebhookUrl: 'URL de webhook no válida',
    invalidDeliveryStatus: 'Estado no válido',
    linkExpired: 'Enlace caducado',
    invalidLinkLifetime: 'Duración del enlace no válida',
    wrongLinkPurpose: 'Enlace para otra página',
    forbiddenScope: 'Acceso no permitido',
    linkAlreadyUsed: 'Enlace ya usado',
    sessionExpired: 'Sesión caducada',
    invalidCsrf: 'Token de formulario no válido',
    invalidReturnUrl: 'returnUrl no válida',
    returnUrlNotAllowed: 'returnUrl no válida',
    invalidReturnOrigin: 'Origen de retorno no válido',
    invalidDisplayName: 'Nombre visible no válido',
    invalidAccentColor: 'Color de acento no válido',
    accentColorTooLight: 'Color de acento demasiado claro',
    invalidPrivacyUrl: 'URL de política de privacidad no válida',
    invalidLogo: 'Logotipo no válido',
    logoTooLarge: 'Logotipo demasiado grande',
    importPurged: 'Importación rechazada: los datos de este usuario se eliminaron durante la subida',
    userStorageFull: 'La importación superaría el límite de almacenamiento: por usuario',
    appStorageFull: 'La importación superaría el límite de almacenamiento: de la aplicación',
    uploadNotFound: 'Subida no encontrada',
    uploadNotComplete: 'Subida incompleta',
    uploadImporting: 'La subida ya se está importando: el resultado llegará enseguida',
    tooManyOpenUploads: 'Demasiadas subidas abiertas',
    uploadOffsetMismatch: 'Upload-Offset no coincide con los bytes recibidos',
    invalidUploadLength: 'Cabecera Upload-Length no válida',
    invalidUploadOffset: 'Cabecera Upload-Offset no válida',
    invalidUploadMetadata: 'Cabecera Upload-Metadata no válida',
    unsupportedTusVersion: 'Versión de Tus-Resumable no admitida: usa 1.0.0',
  },
  askAgain,
  advice: {
    missingLink: `Esta página solo se abre desde un enlace que te da la app. ${askAgain}`,
    invalidLink: `Este enlace está dañado o no es para este servicio. ${askAgain}`,
    appNotFound: 'La app que creó este enlace no está registrada aquí. Contacta con el soporte de la app.',
    linkExpired: `Este enlace ha caducado: la app crea enlaces que solo valen durante poco tiempo. ${askAgain}`,
    invalidLinkLifetime: `Este enlace se creó para durar demasiado, así que no se acepta. ${askAgain}`,
    wrongLinkPurpose: `Este enlace es para otra página. ${askAgain}`,
    forbiddenScope: 'Este enlace pide un acceso que la app no tiene permitido. Contacta con el soporte de la app.',
    linkAlreadyUsed: `Cada enlace funciona una sola vez, y este ya se usó. ${askAgain}`,
    sessionExpired: `Tu sesión aquí ha terminado: se cierra tras 30 minutos sin actividad. ${askAgain}`,
    invalidCsrf: 'Este formulario estaba desactualizado. Vuelve atrás, recarga la página e inténtalo de nuevo.',
    connectionNotFound: 'Esta conexión no existe o se eliminó.',
    conversationNotFound: 'Esta conversación no existe o se eliminó.',
    attachmentNotFound: 'Este archivo no existe o se eliminó.',
    memoryNotFound: 'Este recuerdo no existe o se eliminó.',
    projectNotFound: 'Este proyecto no existe o se eliminó.',
    returnUrlNotAllowed:
      'Este enlace te devolvería a una dirección que la app no ha registrado, así que no se acepta. Contacta con el soporte de la app.',
    bodyTooLarge:
      'El formulario era más grande de lo que acepta esta página. Vuelve atrás, recarga la página e inténtalo de nuevo.',
    requestTimeout: 'Los datos llegaron demasiado despacio. Revisa tu conexión e inténtalo de nuevo.',
    importsBusy: 'Ahora mismo se están importando muchos archivos. Espera un momento y vuelve a subir tu archivo.',
  },

  startTitle: 'Importa tus conversaciones',
  startHeading: ({ app }) => `${app} quiere importar tus conversaciones con IA`,
  startIntro: ({ services }) => `Puedes traer tu historial de chat de ${services}. Así funciona:`,
  startSteps: ({ app }) => [
    'Eliges el servicio y descargas allí la exportación de tus datos.',
    'Subes ese archivo aquí. Parley lee tus conversaciones de él.',
    `Después ${app} puede leer esas conversaciones. Puedes revisarlas y eliminarlas cuando quieras.`,
  ],
  continue: 'Continuar',
  linkWorksOnce: 'Este enlace funciona una sola vez y solo durante poco tiempo.',

  chooseTitle: 'Elige un servicio',
  chooseHeading: '¿Dónde están tus conversaciones?',
  chooseAnother: 'Elegir otro servicio',
  notListed: 'Mi asistente no está en la lista',
  notListedTitle: 'Tu asistente no está en la lista',
  parleyReads: 'Parley lee las exportaciones de estos asistentes:',
  notListedAsk: ({ app }) =>
    `Dile a ${app} qué asistente usas, para que pueda pedir que se añada. En esta página no se sube ningún archivo.`,
  otherProviderFound: {
    title: ({ found }) => `Esta es una exportación de ${found}`,
    advice: ({ provider, found }) =>
      `Elegiste ${provider}, pero este archivo es una exportación de ${found}. ¿Importarlo como ${found}?`,
  },
  importAs: ({ provider }) => `Importar como ${provider}`,

  importFrom: ({ provider }) => `Importar de ${provider}`,
  getExport: '1. Consigue tu exportación',
  providerSteps: {
    openai: [
      'Abre ChatGPT (chatgpt.com o la app) e inicia sesión.',
      'Ve a Configuración → Controles de datos → Exportar datos y elige Exportar.',
      'ChatGPT te envía un enlace de descarga por correo, normalmente en minutos (puede tardar más). Descarga el archivo .zip.',
      zipHere,
    ],
    anthropic: [
      'Abre Claude (claude.ai) e inicia sesión.',
      'Ve a Configuración → Privacidad → Exportar datos.',
      'Claude te envía un enlace de descarga por correo. Descarga el archivo .zip.',
      zipHere,
    ],
    google: [
      'Abre Google Takeout (takeout.google.com) e inicia sesión.',
      'Elige «Anular selección» y marca Mi actividad.',
      'En Mi actividad, abre «Se incluyen todos los datos de actividad» y deja solo Aplicaciones de Gemini; abre «Varios formatos» y elige JSON.',
      'Crea la exportación y descarga el archivo .zip cuando Google avise de que está lista.',
      'Sube ese .zip aquí tal cual. También sirve su MiActividad.json (en Mi actividad → Aplicaciones de Gemini).',
    ],
    microsoft: [
      'Abre el panel de privacidad de Microsoft (account.microsoft.com/privacy) e inicia sesión.',
      'Busca el historial de actividad de Copilot y descárgalo.',
      'Sube aquí el archivo copilot-activity-history.csv, o el .zip en el que venía.',
    ],
    xai: [
      'Inicia sesión en tu cuenta de xAI (accounts.x.ai), la que usas para Grok.',
      'Solicita allí una descarga de tus datos.',
      'Cuando xAI te avise de que está lista, descarga el archivo .zip.',
      'Sube ese .zip aquí tal cual. También sirve el archivo prod-grok-backend.json que contiene.',
    ],
    deepseek: [
      'Abre DeepSeek (chat.deepseek.com) e inicia sesión.',
      'Ve a Configuración → Gestión de datos → Exportar y exporta todo tu historial.',
      'Descarga el archivo .zip.',
      zipHere,
    ],
    perplexity: [
      'Abre Perplexity (perplexity.ai) e inicia sesión.',
      'Ve a Ajustes → Cuenta y elige «Export my data» (Exportar mis datos).',
      'Cuando Perplexity avise de que la exportación está lista, descarga el archivo .zip.',
      'Sube aquí ese .zip tal cual. También sirve el archivo conversations-….json que contiene.',
    ],
    duckduckgo: [
      'Abre Duck.ai (duck.ai) en el dispositivo y el navegador donde chateaste: tus chats solo se guardan allí.',
      'Abre un chat y usa su opción de descarga: guarda el chat como un archivo duck.ai_….txt.',
      'Sube aquí ese archivo .txt, o un .zip con varios de ellos.',
    ],
    mistral: [
      'Abre Le Chat (chat.mistral.ai) e inicia sesión.',
      'Abre Configuración, busca la exportación de tus datos y elige Exportar.',
      'Descarga el archivo .zip (se llama chat-export-…).',
      'Sube ese .zip aquí tal cual: incluye los archivos que adjuntaste. También sirve un archivo chat-….json de dentro.',
    ],
    meta: [
      'Abre el Centro de cuentas (accountscenter.meta.com, o Configuración en Facebook, Instagram o WhatsApp).',
      'Ve a Tu información y permisos → Descargar tu información.',
      'Elige Meta AI, luego HTML o JSON como formato, y crea el archivo.',
      'Cuando Meta avise de que está listo, descarga el archivo .zip.',
      'Sube ese .zip aquí tal cual. También sirve el archivo your_ai_conversations.html o .json que contiene.',
    ],
  },
  waitingForExport: ({ app, hours }) =>
    `¿Esperando la exportación? Deja esta pestaña abierta o vuelve a esta página en este navegador y este dispositivo antes de ${f.counted(hours, { one: '# hora', other: '# horas' })}: estará como la dejaste. El enlace de ${app} solo funciona una vez, así que otro navegador u otro dispositivo necesita uno nuevo.`,
  uploadIt: '2. Súbelo',
  exportFile: ({ files }) => `Archivo de exportación (${files})`,
  upTo: ({ size }) => `Hasta ${size}.`,
  uploadAndImport: 'Subir e importar',
  uploading: 'Subiendo…',
  script: {
    tooLarge: 'Este archivo es demasiado grande para subirlo aquí.',
    progress: '{loaded} de {total} · {percent} %',
    reading: 'Importando…',
    refused: 'La subida fue rechazada.',
    interrupted: 'La subida se interrumpió. Revisa tu conexión e inténtalo de nuevo.',
    busy: 'Ahora mismo se están importando muchos archivos. Se reintentará en un momento…',
    starting: 'Iniciando la subida…',
    resume:
      'La subida de {file} se interrumpió al {percent} %. Vuelve a elegir el mismo archivo: continuará desde ahí.',
    reconnecting: 'Se perdió la conexión. La subida continuará en cuanto vuelva…',
  },

  importFailedTitle: 'La importación falló',
  importFailedHeading: 'La importación no funcionó',
  tryAgain: 'Intentar de nuevo',
  importCompleteTitle: 'Importación completada',
  importedHeading: ({ provider }) => `Tus conversaciones de ${provider} ya están aquí`,
  nowAvailable: ({ count, provider, app }) =>
    f.counted(count, {
      one: `# conversación de ${provider} ya está disponible para ${app}.`,
      other: `# conversaciones de ${provider} ya están disponibles para ${app}.`,
    }),
  countNew: 'Nuevas',
  countUpdated: 'Actualizadas',
  countUnchanged: 'Sin cambios',
  countSkipped: 'Omitidas',
  notImported: ({ items }) => `No importado: ${items.join(', ')}.`,
  notReadCounts: {
    'design chats': ({ count }) => f.counted(count, { one: '# chat de diseño', other: '# chats de diseño' }),
    'artifact versions': ({ count }) =>
      f.counted(count, { one: '# versión de artefacto', other: '# versiones de artefactos' }),
    'feedback files': ({ count }) =>
      f.counted(count, { one: '# archivo de comentarios', other: '# archivos de comentarios' }),
    'account files': ({ count }) =>
      f.counted(count, { one: '# archivo de la cuenta', other: '# archivos de la cuenta' }),
    'voice recordings': ({ count }) => f.counted(count, { one: '# grabación de voz', other: '# grabaciones de voz' }),
    'chat.html pages': ({ count }) => f.counted(count, { one: '# página chat.html', other: '# páginas chat.html' }),
    'shared conversation lists': ({ count }) =>
      f.counted(count, {
        one: '# lista de conversaciones compartidas',
        other: '# listas de conversaciones compartidas',
      }),
    projects: ({ count }) => f.counted(count, { one: '# proyecto', other: '# proyectos' }),
    tasks: ({ count }) => f.counted(count, { one: '# tarea', other: '# tareas' }),
    'media posts': ({ count }) =>
      f.counted(count, { one: '# publicación multimedia', other: '# publicaciones multimedia' }),
  },
  skippedExplained:
    'Ignorado: lo que no se pudo leer, las copias que la exportación repite y lo que eliminaste aquí antes, que sigue eliminado.',
  closeOrLater: 'Ya puedes cerrar esta página, o subir más adelante una exportación más reciente.',
  uploadAnother: 'Subir otro archivo',

  statuses: { active: 'Conectado', needs_reauth: 'Necesita una exportación nueva', revoked: 'Desconectado' },
  notices: {
    'conversation-deleted': 'La conversación se eliminó.',
    'attachment-deleted': 'El archivo se eliminó.',
    'memory-deleted': 'El recuerdo se eliminó.',
    'project-deleted': 'El proyecto se eliminó.',
    disconnected: 'La conexión se desconectó y sus conversaciones se eliminaron.',
  },
  manageTitle: 'Tus conversaciones importadas',
  nothingImported: 'No hay nada aquí: no se ha importado ninguna conversación para ti.',
  downloadHeading: 'Descarga tus datos',
  downloadText: ({ app }) =>
    `Un archivo ZIP con todo lo que ${app} guarda de ti: cada conexión con todas sus conversaciones (con cada mensaje), recuerdos y proyectos, en JSON, y los archivos e imágenes de tus mensajes y proyectos — para conservarlo o llevarlo a otro servicio.`,
  downloadButton: 'Descargar mis datos',
  deleteAllHeading: 'Eliminar todo',
  deleteAllText: ({ app }) => `Quita de ${app} todas tus conversaciones y conexiones importadas.`,
  deleteAllButton: 'Eliminar todos mis datos',
  importHeading: 'Importar desde otro servicio',
  importText: ({ app }) =>
    `Trae a ${app} tus conversaciones, recuerdos y proyectos de otro asistente de IA, o una exportación más reciente de uno que ya importaste.`,
  importButton: 'Importar desde otro servicio',
  showWholeOutput: ({ count }) => f.counted(count, { one: 'Mostrar toda la salida', other: 'Mostrar las # líneas' }),
  memoryCount: ({ count }) => f.counted(count, { one: '# recuerdo', other: '# recuerdos' }),
  projectCount: ({ count }) => f.counted(count, { one: '# proyecto', other: '# proyectos' }),
  besideHeading: 'Recuerdos y proyectos',
  providerMemories: ({ provider }) => `Recuerdos de ${provider}`,
  memoriesText: ({ provider }) => `Lo que ${provider} recordaba de ti, tal como lo guarda su exportación.`,
  providerProjects: ({ provider }) => `Proyectos de ${provider}`,
  noneOnPage: 'No hay nada en esta página.',
  accountMemory: 'Sobre ti',
  projectMemory: 'Recuerdo del proyecto',
  untitledProject: 'Proyecto sin nombre',
  instructionsHeading: 'Instrucciones',
  noInstructions: 'Este proyecto no tiene instrucciones.',
  knowledgeHeading: 'Archivos de conocimiento',
  noKnowledge: 'Este proyecto no tiene archivos de conocimiento.',
  deleteMemory: 'Eliminar',
  deleteMemoryLabel: ({ title }) => `Eliminar el recuerdo «${title}»`,
  confirmDeleteMemory: '¿Eliminar este recuerdo?',
  confirmDeleteMemoryText: ({ title, size, app }) => `El recuerdo «${title}» (${size}) se eliminará de ${app}.`,
  deleteMemoryButton: 'Eliminar recuerdo',
  deleteProjectHeading: 'Eliminar este proyecto',
  deleteProjectButton: 'Eliminar proyecto',
  confirmDeleteProject: '¿Eliminar este proyecto?',
  confirmDeleteProjectText: ({ name, files, size, app }) =>
    `El proyecto «${name}», sus instrucciones y ${f.counted(files, { one: 'su # archivo de conocimiento', other: 'sus # archivos de conocimiento' })} (${size} en total) se eliminarán de ${app}. Sus conversaciones se quedan.`,
  staysDeleted:
    'Si más adelante vuelves a importar la misma exportación, no volverá, salvo que antes desconectes la conexión entera.',

  providerConversations: ({ provider }) => `Conversaciones de ${provider}`,
  allConnections: 'Todas las conexiones',
  countNewestFirst: ({ count }) =>
    f.counted(count, {
      one: '# conversación, las más recientes primero',
      other: '# conversaciones, las más recientes primero',
    }),
  noConversationsOnPage: 'No hay conversaciones en esta página.',
  noConversations: 'No hay conversaciones aquí.',
  untitled: 'Conversación sin título',
  pages: 'Páginas',
  newer: 'Más recientes',
  older: 'Más antiguas',
  pageOf: ({ page, pages }) => `Página ${f.number(page)} de ${f.number(pages)}`,
  searchTitle: 'Busca en tus conversaciones',
  searchLabel: 'Palabras que buscar en títulos y mensajes',
  searchButton: 'Buscar',
  searchNone: 'Ninguna conversación coincide.',
  searchNoMore: 'No hay más conversaciones que coincidan.',
  searchMatches: ({ count }) =>
    f.counted(count, {
      one: '# conversación coincide, las más relevantes primero',
      other: '# conversaciones coinciden, las más relevantes primero',
    }),
  betterMatches: 'Más relevantes',
  moreMatches: 'Más resultados',
  searchPageTitle: ({ q }) => `«${q}»: tus conversaciones`,
  disconnectHeading: ({ provider }) => `Desconectar ${provider}`,
  disconnectText: ({ app }) => `Elimina estas conversaciones de ${app} y deja de usar esta conexión.`,
  disconnectButton: 'Desconectar',

  lastUpdated: 'Última actualización:',
  noMessages: 'Esta conversación no tiene mensajes.',
  reasoning: 'Razonamiento',
  shownAsPlainText: 'Demasiado largo para darle formato aquí: se muestra como texto sin formato.',
  roles: { user: 'Tú', assistant: 'Asistente', system: 'Sistema', tool: 'Herramienta' },
  attachmentsLabel: 'Archivos',
  attachmentNotStored: 'no está en la exportación',
  documentCut: 'Este es el comienzo del texto.',
  downloadWholeText: 'Descargar el texto completo',
  deleteAttachment: 'Eliminar',
  deleteAttachmentLabel: ({ name }) => `Eliminar ${name}`,
  confirmDeleteAttachment: '¿Eliminar este archivo?',
  confirmDeleteAttachmentText: ({ name, app }) => `«${name}» se eliminará de ${app}. La conversación se queda.`,
  deleteAttachmentButton: 'Eliminar archivo',
  deleteConversationHeading: 'Eliminar esta conversación',
  deleteConversationButton: 'Eliminar conversación',

  cannotBeUndone: 'Esto no se puede deshacer.',
  cancel: 'Cancelar',
  confirmDeleteConversation: '¿Eliminar esta conversación?',
  confirmDeleteConversationText: ({ title, app }) => `«${title}» se eliminará de ${app}.`,
  confirmDisconnect: ({ provider }) => `¿Desconectar ${provider}?`,
  confirmDisconnectText: ({ count, provider, app }) =>
    f.counted(count, {
      one: `La # conversación de ${provider} se eliminará de ${app}, y la conexión aparecerá como desconectada.`,
      other: `Las # conversaciones de ${provider} se eliminarán de ${app}, y la conexión aparecerá como desconectada.`,
    }),
  confirmDeleteAll: '¿Eliminar todos tus datos?',
  confirmDeleteAllText: ({ app }) =>
    `Todas las conversaciones y conexiones importadas para ti se eliminarán de ${app}.`,

  // What the connect start page says of the person's data.
  trustHeading: 'Tus datos',
  trustWhatTerm: 'Qué se importa',
  trustWhat:
    'Solo las conversaciones del archivo de exportación que subas: tus mensajes y las respuestas, con sus títulos y fechas, tal como el servicio los escribió en el archivo. Parley no recibe ninguna contraseña ni acceso a tu cuenta.',
  trustWhoTerm: 'Quién las ve',
  trustWho: ({ app }) => `${app} y tú. Parley guarda tus conversaciones para ${app} y no se las muestra a nadie más.`,
  trustDeleteTerm: 'Revisar y eliminar',
  trustDelete: ({ app }) =>
    `Cuando quieras, en la página donde ${app} te deja gestionar tus conversaciones importadas: leerlas, eliminar una o eliminarlas todas.`,
  privacyPolicyIntro: ({ app }) => `Cómo usa ${app} tus datos:`,
  privacyPolicy: ({ app }) => `política de privacidad de ${app}`,

  // The upload's drop zone.
  dropZone: 'Elige un archivo o suéltalo aquí',
  fileChosen: 'Archivo elegido',

  importProblems: {
    notAnExport: {
      title: 'Este archivo no es una exportación de conversaciones',
      advice: ({ provider, files }) =>
        `Sube el archivo que descargaste de ${provider} (${files}), no una captura de pantalla ni otro documento. Los pasos de la página anterior explican cómo obtenerlo.`,
    },
    otherProvider: {
      title: ({ provider }) => `Esta no es una exportación de ${provider}`,
      advice: ({ provider }) =>
        `Parece una exportación de otro servicio. Elige el servicio del que procede el archivo, o sube la exportación que descargaste de ${provider}.`,
    },
    misexported: {
      title: ({ provider }) => `Esta exportación de ${provider} se hizo con otros ajustes`,
      advice: ({ provider }) =>
        `Vuelve a hacer la exportación en ${provider} exactamente como indican los pasos de la página anterior, eligiendo JSON como formato, y sube el archivo nuevo.`,
    },
    damaged: {
      title: 'Este archivo está dañado o incompleto',
      advice: ({ provider }) =>
        `Puede que se cortara durante la descarga. Descarga de nuevo la exportación de ${provider} y sube el archivo nuevo.`,
    },
    tooLarge: {
      title: 'Este archivo es demasiado grande para importarlo aquí',
      advice: ({ app }) => `Contacta con el soporte de ${app}: pueden aumentar el límite.`,
    },
    conversationTooLarge: {
      title: 'Una conversación de este archivo es demasiado grande para importarla',
      advice: ({ app }) => `Contacta con el soporte de ${app}: pueden aumentar el límite.`,
    },
    conflict: {
      title: 'Había otra importación en curso al mismo tiempo',
      advice: 'No se importó nada de este archivo. Súbelo otra vez.',
    },
    failed: {
      title: 'Algo salió mal por nuestra parte',
      advice: ({ app }) =>
        `No se importó nada. Inténtalo de nuevo en unos minutos; si vuelve a ocurrir, contacta con el soporte de ${app}.`,
    },
  },
  nothingNewHeading: ({ provider }) => `Nada nuevo en esta exportación de ${provider}`,
  nothingNewText: ({ provider }) =>
    `Todo lo que contiene ya estaba importado. Para traer conversaciones más recientes, haz una nueva exportación en ${provider} y súbela.`,

  // A page of a session this browser never opened.
  noSessionTitle: 'Abre esta página desde la app',
  noSessionAdvice: `Esta página solo funciona después de abrir un enlace que te da la app, y este navegador no ha abierto ninguno. ${askAgain}`,
  connectSessionEnded: ({ hours }) =>
    `Esta página sigue abierta ${f.counted(hours, { one: '# hora', other: '# horas' })} después de abrirla por primera vez, y ese tiempo ya pasó. ${askAgain}`,

  // The manage pages' rows, times and notices.
  connectionsHeading: 'Tus conexiones',
  conversationCount: ({ count }) => f.counted(count, { one: '# conversación', other: '# conversaciones' }),
  updatedAgo: ({ when }) => `actualizado ${when}`,
  disconnectedRow: 'Desconectado · sus conversaciones se eliminaron',
  revokedText: ({ app }) =>
    `Esta conexión se desconectó y sus conversaciones se eliminaron. Para recuperarlas, inicia una nueva importación desde ${app}.`,
  allDeletedHeading: 'Se eliminó todo',
  allDeletedText: ({ connections, conversations, app }) =>
    `Se eliminaron ${f.counted(connections, { one: '# conexión', other: '# conexiones' })} y ${f.counted(conversations, { one: '# conversación', other: '# conversaciones' })}. ${app} ya no tiene ninguna de tus conversaciones.`,
  accessHeading: 'Quién leyó tus conversaciones',
  accessNone: ({ app }) => `En los últimos 30 días, ni ${app} ni su asistente leyeron tus conversaciones.`,
  accessServer: ({ app, days }) =>
    `En los últimos 30 días, el servidor de ${app} leyó tus conversaciones ${f.counted(days, { one: '# día', other: '# días' })}.`,
  accessAgent: ({ app, reads, searches }) =>
    `El asistente de ${app} las leyó ${f.counted(reads, { one: '# vez', other: '# veces' })} y las buscó ${f.counted(searches, { one: '# vez', other: '# veces' })}.`,
  backToTop: 'Volver arriba',
  copyCode: 'Copiar',
  codeCopied: 'Copiado',
  code: 'Código',

  // The way back to the app, its brand on the pages, and a manage link opened by a preview.
  returnTo: ({ app }) => `Volver a ${app}`,
  securedBy: 'Protegido por Parley',
  openTitle: 'Abrir tus conversaciones',
  openHeading: ({ app }) => `Tus conversaciones compartidas con ${app}`,
  openText: 'Abre la página para revisarlas, descargarlas o eliminarlas.',
  openButton: 'Abrir',
};
