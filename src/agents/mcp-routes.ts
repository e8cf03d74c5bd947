import { Server } from '@modelcontextprotocol/sdk/server';
// The SDK's `./*` export names each file's types `<file>.js.d.ts`, which do not
// exist: TypeScript finds them anyway, Deno's check is shown where they are.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/webStandardStreamableHttp.d.ts"
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';
import packageJson from '../../package.json' with { type: 'json' };
import { countRequest, methodNotAllowed } from '../api/middleware.ts';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { BODY_LIMITS, readJsonBody } from '../http/request-body.ts';
import { type Agent, authenticateAgent } from './agent-tokens.ts';
import { AGENT_TOOLS, callAgentTool } from './agent-tools.ts';

const INSTRUCTIONS =
  'Reads one person’s past conversations with AI assistants (ChatGPT, Claude and others), imported with their consent. Search them with search_conversations, browse them with list_conversations, read one with get_conversation; what their assistants remembered of them with list_memories, their projects with list_projects. Read-only.';

/** A server for one request: stateless, it knows only the token's user. */
function agentServer(deps: Deps, agent: Agent) {
  const server = new Server(
    { name: 'parley', version: packageJson.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: AGENT_TOOLS.map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema: inputSchema as { type: 'object' },
      annotations: { readOnlyHint: true, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callAgentTool(deps, agent, request.params.name, request.params.arguments),
  );
  return server;
}

const isToolCall = (message: unknown) =>
  typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'tools/call';

/**
 * /mcp: the Model Context Protocol server (Streamable HTTP, stateless, JSON
 * answers) an app's assistant reads one person's data through, authorised by
 * an agent token. A browser page's request (one with an Origin) is refused
 * unless MCP_ALLOWED_ORIGINS names its origin: a page must not be able to use
 * a token it was handed, nor a local server be reached from any site.
 */
export function mcpRoutes(deps: Deps) {
  const routes = new Hono<AppEnv>();
  const allowed = deps.config.mcpAllowedOrigins;
  routes.use(
    '/mcp',
    createMiddleware<AppEnv>(async (c, next) => {
      const origin = c.req.header('Origin');
      if (origin !== undefined && !allowed.includes(origin)) throw new ParleyError('originNotAllowed');
      await next();
      c.header('Cache-Control', 'no-store');
    }),
  );
  if (allowed.length)
    routes.use(
      '/mcp',
      cors({
        origin: [...allowed],
        allowMethods: ['POST'],
        allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'Mcp-Protocol-Version'],
        exposeHeaders: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'WWW-Authenticate'],
      }),
    );
  routes.post('/mcp', async (c) => {
    let agent: Agent;
    try {
      agent = await authenticateAgent(deps, c.req.header('Authorization'));
    } catch (error) {
      c.header('WWW-Authenticate', 'Bearer');
      throw error;
    }
    // The request log's appId; the token itself is never logged.
    c.set('caller', { appId: agent.appId, usedAppSecret: false });
    const message = await readJsonBody(c.req.raw, BODY_LIMITS.mcp, deps.config.bodyTimeoutMs);
    // The current protocol revision has no batches: one message, one tool call to count.
    if (Array.isArray(message)) throw new ParleyError('invalidJsonBody');
    if (isToolCall(message)) await countRequest(deps, c, agent.appId);
    const server = agentServer(deps, agent);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const answer = await transport.handleRequest(c.req.raw, { parsedBody: message });
      return c.newResponse(answer.body, answer.status as 200, Object.fromEntries(answer.headers));
    } finally {
      await server.close();
    }
  });
  routes.all('/mcp', methodNotAllowed(['POST']));
  return routes;
}
