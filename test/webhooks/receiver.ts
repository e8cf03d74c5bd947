import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from 'parley-sdk';
import { checkDelivery } from '../openapi-check.ts';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP endpoint on loopback that records what it receives and answers
 * with the statuses it is told, in order (then 200); 'hang' never answers.
 * Every delivery is checked against /openapi.json's webhooks. Once told the
 * secret (`verifyWith`), it also verifies each with the SDK's verifier, as a
 * customer's backend would, and answers 401 to one that fails.
 */
export async function startReceiver(answers: Array<number | 'hang'> = []) {
  const received: Received[] = [];
  const hanging: Array<() => void> = [];
  let secret: string | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', async () => {
      // A delivery /openapi.json does not describe fails the test that caused it.
      const body = Buffer.concat(chunks).toString('utf8');
      checkDelivery(request.headers, body);
      received.push({ headers: request.headers, body });
      const verified =
        secret === undefined ||
        (await verifyWebhook(secret, request.headers, body).then(
          () => true,
          () => false,
        ));
      const answer = verified ? (answers.shift() ?? 200) : 401;
      if (answer === 'hang') hanging.push(() => response.destroy());
      else response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answers,
    verifyWith(webhookSecret: string) {
      secret = webhookSecret;
    },
    async close() {
      for (const release of hanging) release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
