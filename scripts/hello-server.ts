/**
 * The benchmark's baseline: a Hono hello-world on the same runtime and server
 * adapter as Parley (`node --import tsx scripts/hello-server.ts`, PORT from env).
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/', (c) => c.json({ hello: 'world' }));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT) }, () => console.log(JSON.stringify({ event: 'listening' })));
process.once('SIGTERM', () => process.exit(0));
