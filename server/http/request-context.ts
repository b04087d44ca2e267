import type { FastifyRequest } from 'fastify';
import type { Caller } from '../services/authentication';
import { unauthenticated } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved once per API request by the authentication hook; null when signed out. */
    caller: Caller | null;
  }
}

/** The authenticated caller, or a 401. */
export function requireCaller(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthenticated();
  return request.caller;
}

/** The client's user agent as stored with sessions and auth events. */
export function userAgentOf(request: FastifyRequest): string {
  return String(request.headers['user-agent'] ?? '').slice(0, 512);
}

/** The body length a client declared, when it declared a plain one. */
export function declaredLength(raw: string | undefined): number | null {
  return raw && /^\d+$/.test(raw) ? Number(raw) : null;
}
