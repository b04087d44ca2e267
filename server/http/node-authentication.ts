import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps';
import { nodes } from '../db/repos';
import type { NodeRow } from '../db/schema';
import { safeEqual } from '../lib/crypto';
import { badRequest, forbidden, HttpError } from './errors';

/*
 * The remote API's authenticator: a node (a Wings daemon, or Aerie's node on its own machine)
 * calls the panel with `Authorization: Bearer <token_id>.<token>`, as Wings does. The id finds the
 * node, the token must match its own. Answers as the reference panel's DaemonAuthenticate: 401
 * without a bearer, 400 for a malformed one, 403 for a wrong one.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** The node calling the remote API; set before every remote handler. */
    callingNode: NodeRow | null;
  }
}

export function registerNodeAuthentication(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('callingNode', null);
  app.addHook('onRequest', async (request) => {
    request.callingNode = await nodeOf(deps, request.headers.authorization);
  });
}

/** The calling node (a handler's guard: the hook has set it, or the request never got here). */
export function callingNode(request: { callingNode: NodeRow | null }): NodeRow {
  if (!request.callingNode) throw forbidden('You are not authorized to access this resource.');
  return request.callingNode;
}

async function nodeOf(deps: AppDeps, header: string | undefined): Promise<NodeRow> {
  const bearer = /^Bearer\s+(.*)$/i.exec(header ?? '')?.[1]?.trim();
  if (!bearer) throw new HttpError(401, 'HttpException', 'Unauthenticated.', undefined, { 'WWW-Authenticate': 'Bearer' });
  const [tokenId, token, extra] = bearer.split('.');
  if (!tokenId || !token || extra !== undefined) throw badRequest('The Authorization header provided was not in a valid format.');
  const node = await nodes.findByTokenId(deps.db, tokenId);
  if (!node || !safeEqual(deps.nodes.tokenOf(node), token)) throw forbidden('You are not authorized to access this resource.');
  return node;
}
