import { Hono } from 'hono';
import { createAgentToken } from '../agents/agent-tokens.ts';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../errors.ts';
import { BODY_LIMITS, readJsonObject } from '../http/request-body.ts';
import { methodNotAllowed, type CallerMiddleware } from './middleware.ts';
import { AgentTokenBody } from './schemas.ts';

/** POST /api/agent-tokens: a short-lived token that reads one user's data, for the app's assistant (/mcp). */
export function agentTokenRoutes(deps: Deps, requireCaller: CallerMiddleware) {
  const routes = new Hono<AppEnv>();
  routes.post('/agent-tokens', requireCaller, async (c) => {
    const body = parseInput(
      AgentTokenBody,
      await readJsonObject(c.req.raw, BODY_LIMITS.purge, deps.config.bodyTimeoutMs),
    );
    return c.json(await createAgentToken(deps, c.get('caller'), body));
  });
  routes.all('/agent-tokens', methodNotAllowed(['POST']));
  return routes;
}
