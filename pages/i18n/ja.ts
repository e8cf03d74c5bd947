import type { Messages } from './en.ts';
import { formatters, localeBasics } from './format.ts';

const f = formatters('ja');
const askAgain = '元のアプリに戻って、もう一度このページを開いてください。新しいリンクが発行されます。';
const zipHere = 'その .zip をそのままここにアップロードしてください。中の conversations.json でもかまいません。';

export const ja: Messages = {
  ...localeBasics('ja'),

  theAppYouCameFrom: '元のアプリ',
  footer: ({ app }) => `会話は ${app} のために保存され、あなたとそのアプリにだけ表示されます。`,
  unknownTime: '不明',

  errorStatus: ({ status }) => `エラー ${status}`,
  errors: {
    missingAuthorization: 'Authorization ヘッダーがありません',
    invalidApiKey: 'API キーが無効です',
    missingUserRef: 'userRef パラメーターがありません',
    invalidUserRef: 'userRef パラメーターが無効です',
    missingConnectionId: 'connectionId パラメーターがありません',
    invalidLimit: 'limit パラメーターが無効です',
    invalidOffset: 'offset パラメーターが無効です',
    invalidUpdatedSince: 'updatedSince パラメーターが無効です',
    invalidQ: 'q パラメーターが無効です',
    invalidJsonBody: 'JSON 本文が無効です',
    purgeTarget: 'userRef と connectionId のどちらか一方を指定してください',
    unrecognizedExport: 'エクスポート形式を認識できません',
    invalidExport: 'エクスポートファイルが無効です',
    fileNotAnExport: 'エクスポートファイルが無効です',
    misexportedExport: 'エクスポートファイルが無効です',
    invalidProvider: 'サービスが無効です',
    invalidTimeZone: 'タイムゾーンが無効です',
    userNotFound: 'ユーザーが見つかりません',
    connectionNotFound: '接続が見つかりません',
    conversationNotFound: '会話が見つかりません',
    attachmentNotFound: '添付ファイルが見つかりません',
    notFound: '見つかりません',
    methodNotAllowed: '許可されていないメソッドです',
    requestTimeout: 'リクエストがタイムアウトしました',
    connectionRevoked: '接続は解除されています',
    importConflict: 'インポートの競合：アップロード中に接続が変更されました。もう一度送信してください',
    exportTooLarge: 'エクスポートファイルが大きすぎます',
    conversationTooLarge: 'エクスポートファイルが大きすぎます（会話）',
    expandedTooLarge: 'エクスポートファイルが大きすぎます（展開後）',
    attachmentTooLarge: 'エクスポートファイルが大きすぎます（含まれるファイル）',
    tooManyRecords: 'エクスポートファイルが大きすぎます（項目が多すぎます）',
    bodyTooLarge: 'リクエストの本文が大きすぎます',
    unsupportedContentType: '対応していないコンテンツタイプです',
    rangeNotSatisfiable: '範囲を満たせません',
    rateLimited: 'リクエストが多すぎます',
    internal: 'サーバー内部エラー',
    databaseBusy: 'データベースが混み合っています。しばらくしてからもう一度お試しください',
    importsBusy: '同時に実行中のインポートが多すぎます。少し待ってからもう一度お試しください',
    missingLink: 'リンクがありません',
    invalidLink: 'リンクが無効です',
    appNotFound: 'アプリが見つかりません',
    keyNotFound: 'キーが見つかりません',
    deliveryNotFound: '配信が見つかりません',
    invalidWebhookUrl: 'Webhook URL が無効です',
    webhookUrlCredentials: 'Webhook URL が無効です',
    privateWebhookUrl: 'Webhook URL が無効です',
    invalidDeliveryStatus: 'ステータスが無効です',
    linkExpired: 'リンクの有効期限が切れています',
    invalidLinkLifetime: 'リンクの有効期間が無効です',
    wrongLinkPurpose: '別のページ用のリンクです',
    forbiddenScope: '許可されていないアクセス範囲です',
    linkAlreadyUsed: 'リンクは使用済みです',
    sessionExpired: 'セッションの有効期限が切れました',
    invalidCsrf: 'フォームのトークンが無効です',
    invalidReturnUrl: 'returnUrl が無効です',
    returnUrlNotAllowed: 'returnUrl が無効です',
    invalidReturnOrigin: '戻り先のオリジンが無効です',
    invalidDisplayName: '表示名が無効です',
    invalidAccentColor: 'アクセントカラーが無効です',
    accentColorTooLight: 'アクセントカラーが明るすぎます',
    invalidPrivacyUrl: 'プライバシーポリシーの URL が無効です',
    invalidLogo: 'ロゴが無効です',
    logoTooLarge: 'ロゴが大きすぎます',
    importPurged: 'インポートは拒否されました：アップロード中にこのユーザーのデータが削除されました',
    userStorageFull: 'インポートすると保存容量の上限を超えます（ユーザーごと）',
    appStorageFull: 'インポートすると保存容量の上限を超えます（アプリ全体）',
  },
  askAgain,
  advice: {
    missingLink: `このページはアプリが発行するリンクからのみ開けます。${askAgain}`,
    invalidLink: `このリンクは壊れているか、このサービス用ではありません。${askAgain}`,
    appNotFound: 'このリンクを作成したアプリはここに登録されていません。アプリのサポートにお問い合わせください。',
    linkExpired: `このリンクは期限切れです。アプリが作るリンクは短い時間だけ有効です。${askAgain}`,
    invalidLinkLifetime: `このリンクは有効期間が長すぎるため受け付けられません。${askAgain}`,
    wrongLinkPurpose: `このリンクは別のページ用です。${askAgain}`,
    forbiddenScope:
      'このリンクはアプリに許可されていないアクセスを求めています。アプリのサポートにお問い合わせください。',
    linkAlreadyUsed: `リンクは一度しか使えず、このリンクは使用済みです。${askAgain}`,
    sessionExpired: `このページのセッションは終了しました。30 分間操作がないと終了します。${askAgain}`,
    invalidCsrf: 'このフォームは古くなっています。前のページに戻り、再読み込みしてからもう一度お試しください。',
    connectionNotFound: 'この接続は存在しないか、削除されました。',
    conversationNotFound: 'この会話は存在しないか、削除されました。',
    attachmentNotFound: 'このファイルは存在しないか、削除されました。',
    returnUrlNotAllowed:
      'このリンクは、アプリが登録していないアドレスに戻そうとするため受け付けられません。アプリのサポートにお問い合わせください。',
    bodyTooLarge:
      'このページが受け付けるよりも大きなフォームが送信されました。前のページに戻り、再読み込みしてからもう一度お試しください。',
    requestTimeout: 'データの到着が遅すぎました。接続を確認してもう一度お試しください。',
    importsBusy:
      '現在多くのファイルをインポートしています。少し待ってから、もう一度ファイルをアップロードしてください。',
  },

  startTitle: '会話をインポート',
  startHeading: ({ app }) => `${app} が AI との会話のインポートを求めています`,
  startIntro: ({ services }) => `${services} のチャット履歴を取り込めます。流れは次のとおりです。`,
  startSteps: ({ app }) => [
    'サービスを選び、そこからデータのエクスポートをダウンロードします。',
    'そのファイルをここにアップロードします。Parley がファイルから会話を読み取ります。',
    `その後、${app} がそれらの会話を読めるようになります。会話はいつでも確認・削除できます。`,
  ],
  continue: '続ける',
  linkWorksOnce: 'このリンクは一度だけ、短い時間のみ有効です。',

  chooseTitle: 'サービスを選択',
  chooseHeading: '会話はどこにありますか？',
  chooseAnother: '別のサービスを選ぶ',

  importFrom: ({ provider }) => `${provider} からインポート`,
  getExport: '1. エクスポートを入手する',
  providerSteps: {
    openai: [
      'ChatGPT（chatgpt.com またはアプリ）を開いてサインインします。',
      '設定 → データコントロール → データをエクスポートする に進み、エクスポートを選びます。',
      'ChatGPT からダウンロードリンクがメールで届きます。通常は数分ですが、もっとかかることもあります。.zip ファイルをダウンロードします。',
      zipHere,
    ],
    anthropic: [
      'Claude（claude.ai）を開いてサインインします。',
      '設定 → プライバシー → データをエクスポート に進みます。',
      'Claude からダウンロードリンクがメールで届きます。.zip ファイルをダウンロードします。',
      zipHere,
    ],
    google: [
      'Google データエクスポート（takeout.google.com）を開いてサインインします。',
      '「選択をすべて解除」を選び、「マイ アクティビティ」にチェックを入れます。',
      '「マイ アクティビティ」の「すべてのアクティビティ データが含まれます」を開いて Gemini アプリだけを残し、「複数の形式」を開いて JSON を選びます。',
      'エクスポートを作成し、準備ができたと Google から知らせが来たら .zip ファイルをダウンロードします。',
      'その .zip をそのままここにアップロードしてください。中の マイアクティビティ.json（マイ アクティビティ → Gemini アプリ）でもかまいません。',
    ],
    microsoft: [
      'Microsoft プライバシー ダッシュボード（account.microsoft.com/privacy）を開いてサインインします。',
      'Copilot のアクティビティ履歴を見つけてダウンロードします。',
      'copilot-activity-history.csv ファイル、またはそれが入っていた .zip をここにアップロードしてください。',
    ],
    xai: [
      'Grok で使っている xAI アカウント（accounts.x.ai）にサインインします。',
      'そこでデータのダウンロードをリクエストします。',
      '準備ができたと xAI から知らせが来たら、.zip ファイルをダウンロードします。',
      'その .zip をそのままここにアップロードしてください。中の prod-grok-backend.json でもかまいません。',
    ],
    deepseek: [
      'DeepSeek（chat.deepseek.com）を開いてサインインします。',
      '設定 → データ管理 → エクスポート に進み、すべての履歴をエクスポートします。',
      '.zip ファイルをダウンロードします。',
      zipHere,
    ],
    perplexity: [
      'Perplexity（perplexity.ai）を開いてサインインします。',
      '設定 → アカウント を開き、「Export my data」（データをエクスポート）を選びます。',
      'エクスポートの準備ができたら、.zip ファイルをダウンロードします。',
      'その .zip をそのままここにアップロードします。中の conversations-….json でもかまいません。',
    ],
    duckduckgo: [
      'チャットに使ったデバイスとブラウザで Duck.ai（duck.ai）を開きます。チャットはそこにだけ保存されています。',
      'チャットを開き、ダウンロードを使います。チャットが duck.ai_….txt ファイル 1 つとして保存されます。',
      'その .txt ファイル、または複数をまとめた .zip をここにアップロードします。',
    ],
  },
  waitingForExport: ({ app }) =>
    `エクスポートを待っていますか？このページは閉じてかまいません。ファイルの準備ができたら、${app} からもう一度インポートを始めてください。`,
  uploadIt: '2. アップロードする',
  exportFile: ({ files }) => `エクスポートファイル（${files}）`,
  upTo: ({ size }) => `最大 ${size}。`,
  uploadAndImport: 'アップロードしてインポート',
  uploading: 'アップロード中…',
  script: {
    tooLarge: 'このファイルは大きすぎてアップロードできません。',
    progress: '{loaded} / {total} · {percent}%',
    reading: 'インポートしています…',
    refused: 'アップロードは拒否されました。',
    interrupted: 'アップロードが中断されました。接続を確認してもう一度お試しください。',
    busy: '現在多くのファイルをインポートしています。まもなく再試行します…',
    starting: 'アップロードを開始しています…',
  },

  importFailedTitle: 'インポート失敗',
  importFailedHeading: 'インポートできませんでした',
  tryAgain: 'もう一度試す',
  importCompleteTitle: 'インポート完了',
  importedHeading: ({ provider }) => `${provider} の会話を取り込みました`,
  nowAvailable: ({ count, provider, app }) =>
    f.counted(count, { other: `${provider} の # 件の会話が ${app} で利用できるようになりました。` }),
  countNew: '新規',
  countUpdated: '更新',
  countUnchanged: '変更なし',
  countSkipped: 'スキップ',
  closeOrLater: 'このページは閉じてかまいません。新しいエクスポートは後からアップロードできます。',
  uploadAnother: '別のファイルをアップロード',

  statuses: { active: '接続済み', needs_reauth: '新しいエクスポートが必要', revoked: '接続解除' },
  notices: {
    'conversation-deleted': '会話を削除しました。',
    'attachment-deleted': 'ファイルを削除しました。',
    disconnected: '接続を解除し、その会話を削除しました。',
  },
  manageTitle: 'インポートした会話',
  nothingImported: 'ここには何もありません。あなたの会話はまだインポートされていません。',
  downloadHeading: 'データをダウンロード',
  downloadText: ({ app }) =>
    `${app} が保存しているあなたのデータすべてを 1 つの ZIP ファイルに。各接続とその会話、すべてのメッセージを JSON で、メッセージのファイルと画像も含みます。保管用にも、別のサービスへの移行にも使えます。`,
  downloadButton: 'データをダウンロード',
  deleteAllHeading: 'すべて削除',
  deleteAllText: ({ app }) => `インポートした会話と接続をすべて ${app} から削除します。`,
  deleteAllButton: 'データをすべて削除',

  providerConversations: ({ provider }) => `${provider} の会話`,
  allConnections: 'すべての接続',
  countNewestFirst: ({ count }) => f.counted(count, { other: '# 件の会話（新しい順）' }),
  noConversationsOnPage: 'このページに会話はありません。',
  noConversations: 'ここに会話はありません。',
  untitled: '無題の会話',
  pages: 'ページ',
  newer: '新しい会話',
  older: '古い会話',
  pageOf: ({ page, pages }) => `${f.number(page)} / ${f.number(pages)} ページ`,
  searchTitle: '会話を検索',
  searchLabel: 'タイトルとメッセージから探す語句',
  searchButton: '検索',
  searchNone: '一致する会話はありません。',
  searchNoMore: 'これ以上一致する会話はありません。',
  searchMatches: ({ count }) => f.counted(count, { other: '# 件の会話が一致（関連度順）' }),
  betterMatches: '関連度の高い結果',
  moreMatches: 'さらに表示',
  searchPageTitle: ({ q }) => `「${q}」: あなたの会話`,
  disconnectHeading: ({ provider }) => `${provider} の接続を解除`,
  disconnectText: ({ app }) => `これらの会話を ${app} から削除し、この接続の利用を停止します。`,
  disconnectButton: '接続を解除',

  lastUpdated: '最終更新：',
  noMessages: 'この会話にはメッセージがありません。',
  reasoning: '推論',
  shownAsPlainText: '長すぎて書式を適用できないため、プレーンテキストで表示しています。',
  roles: { user: 'あなた', assistant: 'アシスタント', system: 'システム', tool: 'ツール' },
  attachmentsLabel: 'ファイル',
  attachmentNotStored: 'エクスポートに含まれていません',
  documentCut: 'テキストの冒頭です。',
  downloadWholeText: 'テキスト全体をダウンロード',
  deleteAttachment: '削除',
  deleteAttachmentLabel: ({ name }) => `${name} を削除`,
  confirmDeleteAttachment: 'このファイルを削除しますか？',
  confirmDeleteAttachmentText: ({ name, app }) => `「${name}」を ${app} から削除します。会話は残ります。`,
  deleteAttachmentButton: 'ファイルを削除',
  deleteConversationHeading: 'この会話を削除',
  deleteConversationButton: '会話を削除',

  cannotBeUndone: 'この操作は元に戻せません。',
  cancel: 'キャンセル',
  confirmDeleteConversation: 'この会話を削除しますか？',
  confirmDeleteConversationText: ({ title, app }) => `「${title}」を ${app} から削除します。`,
  confirmDisconnect: ({ provider }) => `${provider} の接続を解除しますか？`,
  confirmDisconnectText: ({ count, provider, app }) =>
    f.counted(count, {
      other: `${provider} の会話 # 件がすべて ${app} から削除され、接続は「接続解除」と表示されます。`,
    }),
  confirmDeleteAll: 'すべてのデータを削除しますか？',
  confirmDeleteAllText: ({ app }) => `あなたのためにインポートされた会話と接続がすべて ${app} から削除されます。`,

  // What the connect start page says of the person's data.
  trustHeading: 'あなたのデータ',
  trustWhatTerm: 'インポートされるもの',
  trustWhat:
    'アップロードしたエクスポートファイル内の会話だけです。あなたのメッセージと返答を、タイトルや日時とともに、サービスがファイルに書いたとおりに取り込みます。Parley がパスワードやアカウントへのアクセスを受け取ることはありません。',
  trustWhoTerm: '見ることができる人',
  trustWho: ({ app }) => `${app} とあなたです。Parley は会話を ${app} のために保管し、ほかの誰にも表示しません。`,
  trustDeleteTerm: '確認と削除',
  trustDelete: ({ app }) =>
    `${app} が用意するインポート済み会話の管理ページで、いつでも会話を読んだり、1 件ずつまたはすべて削除したりできます。`,
  privacyPolicyIntro: ({ app }) => `${app} によるデータの扱い：`,
  privacyPolicy: ({ app }) => `${app} のプライバシーポリシー`,

  // The upload's drop zone.
  dropZone: 'ファイルを選択するか、ここにドロップ',
  fileChosen: 'ファイルを選択しました',

  importProblems: {
    notAnExport: {
      title: 'このファイルは会話のエクスポートではありません',
      advice: ({ provider, files }) =>
        `${provider} からダウンロードしたファイル（${files}）をアップロードしてください。スクリーンショットやほかの書類ではアップロードできません。入手方法は前のページの手順をご覧ください。`,
    },
    otherProvider: {
      title: ({ provider }) => `これは ${provider} のエクスポートではありません`,
      advice: ({ provider }) =>
        `ほかのサービスのエクスポートのようです。ファイルの取得元のサービスを選ぶか、${provider} からダウンロードしたエクスポートをアップロードしてください。`,
    },
    misexported: {
      title: ({ provider }) => `この ${provider} のエクスポートは別の設定で作成されています`,
      advice: ({ provider }) =>
        `前のページの手順どおりに、形式に JSON を選んで ${provider} でもう一度エクスポートし、新しいファイルをアップロードしてください。`,
    },
    damaged: {
      title: 'このファイルは壊れているか不完全です',
      advice: ({ provider }) =>
        `ダウンロード中に途切れた可能性があります。${provider} からエクスポートをもう一度ダウンロードし、新しいファイルをアップロードしてください。`,
    },
    tooLarge: {
      title: 'このファイルは大きすぎてここではインポートできません',
      advice: ({ app }) => `${app} のサポートにお問い合わせください。上限を引き上げられます。`,
    },
    conversationTooLarge: {
      title: 'このファイル内の会話の 1 つが大きすぎてインポートできません',
      advice: ({ app }) => `${app} のサポートにお問い合わせください。上限を引き上げられます。`,
    },
    conflict: {
      title: '同時に別のインポートが実行されていました',
      advice: 'このファイルからは何もインポートされていません。もう一度アップロードしてください。',
    },
    failed: {
      title: 'こちら側で問題が発生しました',
      advice: ({ app }) =>
        `何もインポートされていません。数分後にもう一度お試しください。繰り返し起きる場合は ${app} のサポートにお問い合わせください。`,
    },
  },
  nothingNewHeading: ({ provider }) => `この ${provider} のエクスポートに新しい内容はありません`,
  nothingNewText: ({ provider }) =>
    `すべてインポート済みです。新しい会話を取り込むには、${provider} で新しくエクスポートしてアップロードしてください。`,

  // A page of a session this browser never opened.
  noSessionTitle: 'このページはアプリから開いてください',
  noSessionAdvice: `このページは、アプリから渡されたリンクを開いた後にだけ使えます。このブラウザーではまだリンクが開かれていません。${askAgain}`,

  // The manage pages' rows, times and notices.
  connectionsHeading: '接続',
  conversationCount: ({ count }) => `${f.number(count)} 件の会話`,
  updatedAgo: ({ when }) => `更新: ${when}`,
  disconnectedRow: '接続解除済み · 会話は削除されました',
  revokedText: ({ app }) =>
    `この接続は解除され、会話は削除されました。元に戻すには、${app} から新しくインポートを始めてください。`,
  allDeletedHeading: 'すべて削除しました',
  allDeletedText: ({ connections, conversations, app }) =>
    `${f.number(connections)} 件の接続と ${f.number(conversations)} 件の会話を削除しました。${app} にはもうあなたの会話はありません。`,
  backToTop: 'ページの先頭へ',
  copyCode: 'コピー',
  codeCopied: 'コピーしました',
  code: 'コード',

  // The way back to the app, its brand on the pages, and a manage link opened by a preview.
  returnTo: ({ app }) => `${app} に戻る`,
  securedBy: 'Parley による保護',
  openTitle: '会話を開く',
  openHeading: ({ app }) => `${app} と共有した会話`,
  openText: 'ページを開くと、会話の確認、ダウンロード、削除ができます。',
  openButton: '開く',
};
