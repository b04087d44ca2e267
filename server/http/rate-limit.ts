import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Config } from '../config';
import { tooManyRequests } from './errors';
import './request-context';

/**
 * The reference panel's client API limit: `apiRateLimit` requests a minute per user, or per
 * address when signed out (checked after authentication, so the key is known). Sign-in has its
 * own per-address and per-account throttles.
 */
export async function registerApiRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  if (config.apiRateLimit <= 0) return;
  await app.register(rateLimit, {
    hook: 'preHandler',
    max: config.apiRateLimit,
    timeWindow: 60_000,
    // The matched route, not the raw URL: `/%61pi/client` reaches the same handlers.
    allowList: (request) => !(request.routeOptions.url ?? request.url).startsWith('/api/client'),
    keyGenerator: (request) => (request.caller ? `user:${request.caller.user.uuid}` : `ip:${request.ip}`),
    // The Retry-After and X-RateLimit-* headers are set by the plugin; the body is our error document.
    errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl / 1000),
  });
}
