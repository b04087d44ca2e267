import type { FastifyReply, FastifyRequest } from 'fastify';
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

/**
 * Aborted when the client goes away before its answer is sent, so long work it asked for stops.
 * The response's `close` (the request's fires as soon as its body is read) before it finished.
 */
export function hangUpSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  if (res.destroyed && !res.writableFinished) controller.abort();
  else res.once('close', () => res.writableFinished || controller.abort());
  return controller.signal;
}

/** The body length a client declared, when it declared a plain one. */
export function declaredLength(raw: string | undefined): number | null {
  return raw && /^\d+$/.test(raw) ? Number(raw) : null;
}
