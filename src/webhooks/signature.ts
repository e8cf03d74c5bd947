export { WEBHOOK_SECRET_PREFIX, webhookSignature as signWebhook } from '../../sdk/src/webhooks.ts';
