export {
  ParleyClient,
  type AttachmentFile,
  type ByteRange,
  type ConversationsQuery,
  type Fetch,
  type IngestExportOptions,
  type PagedQuery,
  type ParleyClientOptions,
} from './client.ts';
export { ParleyError, WebhookVerificationError } from './errors.ts';
export { LINK_SCOPE, MAX_LINK_LIFETIME_SECONDS, signLink, type LinkClaims, type SignLinkOptions } from './sign-link.ts';
export type * from './types.ts';
export { CONNECTION_STATUSES, PROVIDERS, ROLES } from './types.ts';
export { verifyWebhook, WEBHOOK_TOLERANCE_SECONDS, type WebhookHeaders } from './webhooks.ts';
