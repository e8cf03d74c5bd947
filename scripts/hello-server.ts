/**
 * The benchmark's baselines, on the same runtime and server as Parley's entry
 * there (Node's adapter, Deno.serve, Bun.serve): `GET /` is a Hono hello-world;
 * `GET /bytes` answers the file at BODY_FILE, read once into memory, as JSON — a
 * listing's bytes without the work of finding them. Prints one line once
 * listening on 127.0.0.1:PORT; SIGTERM stops it.
 *
 *   node --import tsx scripts/hello-server.ts | deno run -A scripts/hello-server.ts | bun scripts/hello-server.ts
 */
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';

declare const Deno: {
  serve(
    options: { hostname: string; port: number; onListen(): void },
    fetch: (request: Request) => Response | Promise<Response>,
  ): unknown;
};
declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    fetch: (request: Request) => Response | Promise<Response>;
  }): unknown;
};

const body = process.env.BODY_FILE ? new Uint8Array(readFileSync(process.env.BODY_FILE)) : new Uint8Array(0);
const app = new Hono();
app.get('/', (c) => c.json({ hello: 'world' }));
app.get('/bytes', (c) => c.body(body, 200, { 'Content-Type': 'application/json' }));

const hostname = '127.0.0.1';
const port = Number(process.env.PORT);
const listening = () => console.log(JSON.stringify({ event: 'listening' }));
if ('Deno' in globalThis) Deno.serve({ hostname, port, onListen: listening }, app.fetch);
else if ('Bun' in globalThis) {
  Bun.serve({ hostname, port, fetch: app.fetch });
  listening();
} else {
  const { serve } = await import('@hono/node-server');
  serve({ fetch: app.fetch, hostname, port }, listening);
}
process.once('SIGTERM', () => process.exit(0));
