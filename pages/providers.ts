/**
 * What the connect page says of each provider: its name, where people use it,
 * how to get the export, and which files to upload. In the order offered.
 */
export interface ProviderGuide {
  id: ProviderId;
  name: string;
  site: string;
  steps: string[];
  /** The kinds of file to upload: as the file input's `accept`, as extensions, and in English words. */
  accept: string;
  extensions: readonly string[];
  files: string;
}

export type ProviderId =
  | 'openai'
  | 'anthropic'
  | 'google'
  | 'microsoft'
  | 'xai'
  | 'deepseek'
  | 'perplexity'
  | 'duckduckgo'
  | 'mistral'
  | 'meta';

const files = (...extensions: string[]) => ({
  extensions,
  files: new Intl.ListFormat('en', { type: 'disjunction' }).format(extensions),
});
const ZIP_OR_JSON = { accept: '.zip,.json,application/zip,application/json', ...files('.zip', '.json') };

export const PROVIDER_GUIDES: readonly ProviderGuide[] = [
  {
    id: 'openai',
    name: 'ChatGPT',
    site: 'chatgpt.com',
    steps: [
      'Open ChatGPT (chatgpt.com or the app) and sign in.',
      'Go to Settings → Data controls → Export data, and choose Export.',
      'ChatGPT emails you a download link, usually within minutes (it can take longer). Download the .zip file.',
      'Upload that .zip here as it is. The conversations.json file inside it works too.',
    ],
    ...ZIP_OR_JSON,
  },
  {
    id: 'anthropic',
    name: 'Claude',
    site: 'claude.ai',
    steps: [
      'Open Claude (claude.ai) and sign in.',
      'Go to Settings → Privacy → Export data.',
      'Claude emails you a download link. Download the .zip file.',
      'Upload that .zip here as it is. The conversations.json file inside it works too.',
    ],
    ...ZIP_OR_JSON,
  },
  {
    id: 'google',
    name: 'Gemini',
    site: 'gemini.google.com',
    steps: [
      'Open Google Takeout (takeout.google.com) and sign in.',
      'Choose “Deselect all”, then tick My Activity.',
      'Under My Activity, open “All activity data included” and keep only Gemini Apps; open “Multiple formats” and choose JSON.',
      'Create the export and download the .zip file when Google says it is ready.',
      'Upload that .zip here as it is. Its My Activity.json (in My Activity → Gemini Apps) works too.',
    ],
    ...ZIP_OR_JSON,
  },
  {
    id: 'microsoft',
    name: 'Microsoft Copilot',
    site: 'copilot.microsoft.com',
    steps: [
      'Open the Microsoft privacy dashboard (account.microsoft.com/privacy) and sign in.',
      'Find Copilot activity history and choose to download it.',
      'Upload the copilot-activity-history.csv file here, or the .zip it came in.',
    ],
    accept: '.csv,.zip,text/csv,application/zip',
    ...files('.csv', '.zip'),
  },
  {
    id: 'xai',
    name: 'Grok',
    site: 'grok.com',
    steps: [
      'Sign in to your xAI account (accounts.x.ai) — the one you use for Grok.',
      'Request a download of your data there.',
      'When xAI tells you it is ready, download the .zip file.',
      'Upload that .zip here as it is. The prod-grok-backend.json file inside it works too.',
    ],
    ...ZIP_OR_JSON,
  },
  {
    id: 'deepseek',
    name: 'DeepSeek',
    site: 'chat.deepseek.com',
    steps: [
      'Open DeepSeek (chat.deepseek.com) and sign in.',
      'Go to Settings → Data management → Export, and export all your history.',
      'Download the .zip file.',
      'Upload that .zip here as it is. The conversations.json file inside it works too.',
    ],
    ...ZIP_OR_JSON,
  },
  {
    id: 'perplexity',
    name: 'Perplexity',
    site: 'perplexity.ai',
    steps: [
      'Open Perplexity (perplexity.ai) and sign in.',
      'Go to Settings → Account and choose “Export my data”.',
      'When Perplexity says the export is ready, download the .zip file.',
      'Upload that .zip here as it is. The conversations-….json file inside it works too.',
    ],
    ...ZIP_OR_JSON,
  },
  {
    id: 'duckduckgo',
    name: 'Duck.ai',
    site: 'duck.ai',
    steps: [
      'Open Duck.ai (duck.ai) on the device and browser you chatted in: your chats are kept there only.',
      'Open a chat and use its download option: it saves the chat as one duck.ai_….txt file.',
      'Upload that .txt file here, or a .zip holding several of them.',
    ],
    accept: '.txt,.zip,text/plain,application/zip',
    ...files('.txt', '.zip'),
  },
  {
    id: 'mistral',
    name: 'Le Chat',
    site: 'chat.mistral.ai',
    steps: [
      'Open Le Chat (chat.mistral.ai) and sign in.',
      'Open Settings, find the export of your data, and choose Export.',
      'Download the .zip file (named chat-export-…).',
      'Upload that .zip here as it is: it keeps the files you attached. One chat-….json file inside it works too.',
    ],
    ...ZIP_OR_JSON,
  },
  {
    id: 'meta',
    name: 'Meta AI',
    site: 'meta.ai',
    steps: [
      'Open Accounts Center (accountscenter.meta.com, or Settings in Facebook, Instagram or WhatsApp).',
      'Go to Your information and permissions → Download your information.',
      'Choose Meta AI, then HTML or JSON as the format, and create the file.',
      'When Meta says it is ready, download the .zip file.',
      'Upload that .zip here as it is. Its your_ai_conversations.html or .json works too.',
    ],
    accept: '.zip,.html,.json,application/zip,text/html,application/json',
    ...files('.zip', '.html', '.json'),
  },
];

export const providerGuide = (provider: string): ProviderGuide | undefined =>
  PROVIDER_GUIDES.find((guide) => guide.id === provider);

/** A provider's name as people know it. */
export const providerName = (provider: string): string => providerGuide(provider)?.name ?? provider;
