import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import {
  ADMIN_ROUTE_PREFIX,
  SERVER_ROUTE_PREFIX,
  type ActivityEvent,
  type AdminEndpoint,
  type UserEndpoint,
  type EndpointBody,
  type EndpointDefinition,
  type EndpointQuery,
  type EndpointReply,
} from '../../src/contract';
import type { AppDeps } from '../deps';
import type { NodeDaemon } from '../daemon/capabilities';
import type { ServerRow } from '../db/schema';
import { checkAdminAccess, checkServerAction, serverAccess, type ServerAccess } from '../services/access';
import { logActivity, serverActivity, type ActivityInput } from '../services/activity';
import type { ServerAction } from '../services/server-actions';
import type { Caller } from '../services/authentication';
import { parseWith } from './errors';
import { filterKeysOf, rejectUnknownFilters } from './filters';
import { requireCaller } from './request-context';

/*
 * Routes are declared from the contract's endpoint tables: the method, path, inputs and response
 * type come from one row shared with the SPA, so neither side can drift. The helpers resolve the
 * caller (401), for server routes the server and the caller's access once (404, then 409, then
 * 403, the reference panel's order), and only then parse the query and body (422).
 */

/** A raw body (files/write): the request stream, or an empty buffer when there was none. */
type RawBody = Readable | Buffer;
type BodyOf<E extends EndpointDefinition> = E['body'] extends 'raw' ? RawBody : EndpointBody<E>;

export interface ClientContext<E extends EndpointDefinition> {
  request: FastifyRequest;
  reply: FastifyReply;
  caller: Caller;
  query: EndpointQuery<E>;
  body: BodyOf<E>;
}

export interface ServerContext<E extends EndpointDefinition> extends ClientContext<E> {
  access: ServerAccess;
  server: ServerRow;
  /** The daemon of the server's node. */
  daemon: NodeDaemon;
  /** Writes the audit entry of this action: the caller as actor, the server (and `subjects`) as subjects. */
  activity(event: ActivityEvent, properties?: Record<string, unknown>, subjects?: ActivityInput['subjects']): Promise<void>;
  /** The caller acting on the server, for the actions any caller can take (`services/server-actions.ts`). */
  action: ServerAction;
}

export interface ServerRouteOptions<B> {
  /**
   * Finds the child resource the path names (a subuser), as the reference panel's route binding
   * does: its 404 comes before the 409 and the 403. The result is the handler's `bound`.
   */
  bind?(request: FastifyRequest, access: ServerAccess): Promise<B>;
  /** Runs after the permission check and before the inputs are parsed (the subset rule). */
  authorize?(request: FastifyRequest, access: ServerAccess): void;
}

type Handler<E extends EndpointDefinition, C> = (context: C) => Promise<EndpointReply<E>>;

export interface ClientRouteOptions {
  /**
   * Runs before the inputs are parsed, on the raw request: the reference panel checks the current
   * password of account changes this way, so a wrong one is a 400 even when the rest is invalid.
   */
  authorize?(request: FastifyRequest, caller: Caller): Promise<void>;
}

/**
 * A client API route outside a server (the server list, the account):
 * `await clientRoute(app, accountEndpoints.me)(async ({ caller }) => ...)`. Two calls, so the
 * endpoint's types are fixed before the handler is checked against them.
 */
export function clientRoute<const E extends UserEndpoint>(app: FastifyInstance, endpoint: E, options: ClientRouteOptions = {}) {
  return (handler: Handler<E, ClientContext<E>>): Promise<void> =>
    register(app, endpoint, async (request, reply) => {
      const caller = requireCaller(request);
      await options.authorize?.(request, caller);
      const { query, body } = parseInputs<E>(endpoint, request);
      return send(endpoint, reply, await handler({ request, reply, caller, query, body }));
    });
}

/**
 * A route under `/api/client/servers/:server`, with the permission its endpoint declares (same two
 * calls), with the options above.
 */
export function serverRoute<const E extends UserEndpoint, B = undefined>(
  app: FastifyInstance,
  deps: AppDeps,
  endpoint: E,
  options: ServerRouteOptions<B> = {},
) {
  if (!endpoint.path.startsWith(SERVER_ROUTE_PREFIX)) throw new Error(`${endpoint.path} is not a server route`);
  if (endpoint.permission === undefined) throw new Error(`${endpoint.path} declares no permission`);
  const permission = endpoint.permission === 'request' ? null : endpoint.permission;
  return (handler: Handler<E, ServerContext<E> & { bound: B }>): Promise<void> =>
    register(app, endpoint, async (request, reply) => {
      const caller = requireCaller(request);
      const { server: id } = request.params as { server: string };
      const access = await serverAccess(deps.db, caller, id);
      const bound = (await options.bind?.(request, access)) as B;
      checkServerAction(access, permission, { anyState: endpoint.anyState === true });
      options.authorize?.(request, access);
      const { query, body } = parseInputs<E>(endpoint, request);
      const activity: ServerContext<E>['activity'] = (event, properties = {}, subjects = []) =>
        logActivity(deps.db, serverActivity(caller, request.ip, access.server.id, event, properties, deps.clock.now(), subjects));
      const daemon = deps.nodes.forNode(access.node);
      const action: ServerAction = { db: deps.db, clock: deps.clock, server: access.server, daemon, actor: { type: 'user', caller, ip: request.ip } };
      return send(
        endpoint,
        reply,
        await handler({ request, reply, caller, query, body, access, server: access.server, daemon, activity, action, bound }),
      );
    });
}

/**
 * An admin route (`/api/application/...`, declared `admin: true`; the other helpers refuse such an
 * endpoint at compile time): 401 without a caller, then 403 for all but a root admin's session or
 * an application key holding the endpoint's resource, before the inputs are parsed.
 */
export interface AdminRouteOptions<B> {
  /**
   * Finds the resource the path names (a user, a node), as the reference's route binding does:
   * after the access check, before the body, so a missing one is a 404 even when the body is bad.
   * The result is the handler's `bound`.
   */
  bind?(request: FastifyRequest): Promise<B>;
}

export function adminRoute<const E extends AdminEndpoint, B = undefined>(app: FastifyInstance, endpoint: E, options: AdminRouteOptions<B> = {}) {
  if (!endpoint.path.startsWith(`${ADMIN_ROUTE_PREFIX}/`)) throw new Error(`${endpoint.path} is not an admin route`);
  return (handler: Handler<E, ClientContext<E> & { bound: B }>): Promise<void> =>
    register(app, endpoint, async (request, reply) => {
      const caller = requireCaller(request);
      checkAdminAccess(caller, endpoint.resource, endpoint.method !== 'GET');
      const bound = (await options.bind?.(request)) as B;
      const { query, body } = parseInputs<E>(endpoint, request);
      return send(endpoint, reply, await handler({ request, reply, caller, query, body, bound }));
    });
}

async function register(
  app: FastifyInstance,
  endpoint: EndpointDefinition,
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): Promise<void> {
  if (endpoint.body !== 'raw') {
    app.route({ method: endpoint.method, url: endpoint.path, handler });
    return;
  }
  // Its own encapsulation context, so the pass-through parser never reaches other routes: the body
  // stays an unread stream until access is checked, and any content type is taken as bytes.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    raw.route({ method: endpoint.method, url: endpoint.path, handler });
  });
}

function parseInputs<E extends EndpointDefinition>(endpoint: E, request: FastifyRequest): { query: EndpointQuery<E>; body: BodyOf<E> } {
  let query: unknown;
  if (endpoint.query) {
    rejectUnknownFilters(request.query, filterKeysOf(endpoint.query));
    query = parseWith(endpoint.query, request.query);
  }
  let body: unknown;
  if (endpoint.body === 'raw') body = request.body instanceof Readable ? request.body : Buffer.alloc(0);
  else if (endpoint.body) body = parseWith(endpoint.body as z.ZodMiniType, request.body);
  return { query: query as EndpointQuery<E>, body: body as BodyOf<E> };
}

function send(endpoint: EndpointDefinition, reply: FastifyReply, result: unknown): unknown {
  if (endpoint.response === 'empty') return reply.status(204).send();
  if (endpoint.response === 'text') return reply.type('text/plain; charset=utf-8').send(result);
  if (isLongList(result)) return reply.type('application/json; charset=utf-8').send(Readable.from(listChunks(result.data)));
  return result;
}

/*
 * A long list (a 10,000-entry directory is 2.6 MB of JSON) is serialized a slice at a time as it
 * is sent, never as one large string copied into one large buffer: on a small VM, touching that
 * much fresh memory at once costs more than the serializing itself. The bytes are exactly those
 * of JSON.stringify of the whole document, only sent in chunks.
 */
const LONG_LIST = 500;
const LIST_SLICE = 250;

function isLongList(result: unknown): result is { object: 'list'; data: unknown[] } {
  if (typeof result !== 'object' || result === null) return false;
  const keys = Object.keys(result);
  const { object, data } = result as { object?: unknown; data?: unknown };
  return keys.length === 2 && keys[0] === 'object' && keys[1] === 'data' && object === 'list' && Array.isArray(data) && data.length > LONG_LIST;
}

function* listChunks(data: unknown[]): Generator<string> {
  yield '{"object":"list","data":[';
  for (let i = 0; i < data.length; i += LIST_SLICE) {
    const slice = JSON.stringify(data.slice(i, i + LIST_SLICE));
    yield (i === 0 ? '' : ',') + slice.slice(1, -1);
  }
  yield ']}';
}
