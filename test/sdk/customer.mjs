/**
 * A customer backend's script, run by sdk.test.ts inside a project of its own
 * that installed the packed parley-sdk: what the README's "For your backend"
 * promises, end to end against a running server. Prints one JSON line.
 *
 *   PARLEY_URL PARLEY_APP_ID PARLEY_APP_SECRET PARLEY_API_KEY PARLEY_WEBHOOK_SECRET
 *   HOOKS_PORT (where Parley delivers) EXPORT_FILE   node customer.mjs
 */
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { ParleyClient, signLink, verifyWebhook } from 'parley-sdk';

const env = process.env;
const deliveries = [];
const hooks = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      deliveries.push(await verifyWebhook(env.PARLEY_WEBHOOK_SECRET, request.headers, Buffer.concat(chunks)));
      response.writeHead(204).end();
    } catch (error) {
      deliveries.push({ refused: error.message });
      response.writeHead(400).end();
    }
  });
});
await new Promise((resolve) => hooks.listen(Number(env.HOOKS_PORT), '127.0.0.1', resolve));

const link = await signLink(
  {
    appId: env.PARLEY_APP_ID,
    userRef: 'sdk-user',
    scopes: ['conversations:read'],
    purpose: 'connect',
    baseUrl: env.PARLEY_URL,
  },
  env.PARLEY_APP_SECRET,
);
const page = await fetch(link);
const pageText = await page.text();

const parley = new ParleyClient({ baseUrl: env.PARLEY_URL, apiKey: env.PARLEY_API_KEY });
const imported = await parley.ingestExport({
  userRef: 'sdk-user',
  file: Readable.toWeb(createReadStream(env.EXPORT_FILE)),
});
const { connections } = await parley.listConnections('sdk-user');
const titles = [];
for await (const conversation of parley.conversations(imported.connectionId, { limit: 2 }))
  titles.push(conversation.title);
// Search and updatedSince reach the server: a search for "marathon", and nothing changed since the future.
const searched = (await parley.listConversations(imported.connectionId, { q: 'marathon', limit: 5 })).conversations.map(
  (c) => c.title,
);
const unchanged = (
  await parley.listConversations(imported.connectionId, { updatedSince: new Date(Date.now() + 3_600_000) })
).total;
const purged = await parley.purge({ userRef: 'sdk-user' });
let gone;
try {
  await parley.listConnections('sdk-user');
} catch (error) {
  gone = { name: error.name, status: error.status, message: error.message };
}

// Three events: the connection made, its sync, the purge.
for (let waited = 0; deliveries.length < 3 && waited < 15_000; waited += 100)
  await new Promise((resolve) => setTimeout(resolve, 100));
hooks.close();
console.log(
  JSON.stringify({
    page: { status: page.status, connectPage: pageText.includes('would like to import your AI conversations') },
    imported,
    connections,
    titles,
    searched,
    unchanged,
    purged,
    gone,
    deliveries,
  }),
);
