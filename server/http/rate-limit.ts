import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { tooManyRequests } from './errors';
import './request-context';

/**
 * The reference panel's API limits: `max` requests a minute per user (the client API) or per key
 * (the application API; an admin's session counts as the admin), or per address when signed out
 * (checked after authentication, so the caller is known), on the routes under `prefix`. Sign-in has
 * its own per-address and per-account throttles.
 */
export async function registerApiRateLimit(app: FastifyInstance, max: number, prefix: string): Promise<void> {
  if (max <= 0) return;
  await app.register(rateLimit, {
    hook: 'preHandler',
    max,
    timeWindow: 60_000,
    // The matched route, not the raw URL: `/%61pi/client` reaches the same handlers.
    allowList: (request) => !(request.routeOptions.url ?? request.url).startsWith(prefix),
    keyGenerator: ({ caller, ip }) => (caller?.applicationGrants ? `key:${caller.apiKeyId}` : caller ? `user:${caller.user.uuid}` : `ip:${ip}`),
    // The Retry-After and X-RateLimit-* headers are set by the plugin; the body is our error document.
    errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl / 1000),
  });
}
