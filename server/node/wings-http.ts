import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import { DaemonError, describeRefusal } from '../daemon/types';
import { safeEqual } from '../lib/crypto';

/*
 * The HTTP conventions of Wings' router (`router/middleware/*`): a request id on every answer,
 * errors as `{"error": "...", "request_id": "..."}`, the panel's token on `/api/*` (the console
 * socket excepted: its token is in its first message), and CORS for the panel's page.
 */

export class WingsError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const PARSE_FAILED = 'The data passed in the request was not in a parsable format. Please try again.';
export const INVALID = 'The data provided in the request could not be validated.';
export const UNKNOWN_SERVER = 'The requested resource does not exist on this instance.';

export function parseBody<S extends z.ZodMiniType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new WingsError(422, INVALID);
  return parsed.data;
}

/** Routes under /api that carry a panel-signed JWT instead of the node's token: the console socket (in its first frame) and a transfer's target (as its Authorization). */
const SIGNED_ROUTES = /^\/api\/(?:servers\/[^/]+\/ws|transfers)(?:\?|$)/;

export interface WingsHttpOptions {
  token: string;
  /** Origins the browser routes serve: the panel's, then `allowed_origins` (`*` for any). */
  origins: string[];
  log: (message: string, error: unknown) => void;
}

export function wingsHttp(app: FastifyInstance, options: WingsHttpOptions): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    cors(request, reply, options.origins);
    if (request.method === 'OPTIONS') return reply.status(204).send();
    if (!request.url.startsWith('/api/') || SIGNED_ROUTES.test(request.url)) return;
    const [scheme, token, extra] = (request.headers.authorization ?? '').split(' ');
    if (scheme !== 'Bearer' || token === undefined || extra !== undefined) {
      return reply
        .status(401)
        .header('WWW-Authenticate', 'Bearer')
        .send({ error: 'The required authorization heads were not present in the request.' });
    }
    if (!safeEqual(token, options.token)) return reply.status(403).send({ error: 'You are not authorized to access this endpoint.' });
  });

  app.setNotFoundHandler((request, reply) => reply.status(404).send({ error: 'The requested endpoint does not exist.', request_id: request.id }));

  app.setErrorHandler((error: unknown, request, reply) => {
    const { status, message } = wingsAnswer(error);
    if (status >= 500 && status !== 502) options.log(`${request.method} ${request.url} failed`, error);
    return reply.status(status).send({ error: message, request_id: request.id });
  });
}

/** The status and message Wings gives for an error. */
function wingsAnswer(error: unknown): { status: number; message: string } {
  if (error instanceof WingsError) return { status: error.status, message: error.message };
  if (error instanceof DaemonError) {
    const refusal = describeRefusal(error);
    return { status: refusal.status, message: error.kind === 'not_found' ? refusal.detail : error.message };
  }
  const fastify = error as { statusCode?: unknown; code?: unknown };
  if (fastify.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastify.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return { status: 400, message: PARSE_FAILED };
  if (typeof fastify.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    return { status: fastify.statusCode, message: error instanceof Error ? error.message : 'Bad request.' };
  }
  return { status: 500, message: 'An unexpected error was encountered while processing this request.' };
}

/** Wings' CORS middleware: the panel's origin and `allowed_origins` are let in, with credentials. */
function cors(request: FastifyRequest, reply: FastifyReply, origins: string[]): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (!origins.includes('*') && !origins.includes(origin)) return;
  reply
    .header('Access-Control-Allow-Origin', origin)
    .header('Vary', 'Origin')
    .header('Access-Control-Allow-Credentials', 'true')
    .header('Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS')
    .header(
      'Access-Control-Allow-Headers',
      'Accept, Accept-Encoding, Authorization, Cache-Control, Content-Type, Content-Length, Content-Range, Origin, X-Real-IP, X-CSRF-Token',
    )
    .header('Access-Control-Max-Age', '7200');
}

export const newRequestId = (): string => randomUUID();
