import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { NodeDaemon } from '../daemon/capabilities';
import { tokenKey, type TokenScope } from '../daemon/tokens';
import type { Db } from '../db';
import { nodes, servers } from '../db/repos';
import type { NodeRow, ServerRow, UserRow } from '../db/schema';
import type { NodeDaemons } from './node-daemons';

/*
 * Tokens the panel signs for a node's daemon, the way the reference panel does: HS256 with the
 * node's key, issued by the panel, meant for the node's address, identified by md5(user id +
 * server uuid) so that every token of one user on one server can be revoked at once.
 */

/** Where a node's daemon answers: its own address, or this panel's origin for the local node. */
export function nodeConnection(node: Pick<NodeRow, 'daemon_base_url'>, panelOrigin: string): string {
  return (node.daemon_base_url ?? panelOrigin).replace(/\/+$/, '');
}

/** The id shared by every token of one user on one server (what a revocation names). */
export function socketTokenId(userId: number, serverUuid: string): string {
  return createHash('md5').update(`${userId}${serverUuid}`).digest('hex');
}

export interface NodeTokenRequest {
  node: Pick<NodeRow, 'daemon_base_url'>;
  /** The node's token in the clear (NodeDaemons.tokenOf): the signing key. */
  key: string;
  user: Pick<UserRow, 'id' | 'uuid'>;
  serverUuid: string;
  /** Wings' `scope` claim: what the token may be used for, one use per token here. */
  scope: TokenScope;
  claims: Record<string, unknown>;
  ttlSeconds: number;
  /** This panel's public origin: the issuer, and the address of a local node. */
  panelOrigin: string;
  now: Date;
}

export async function signNodeToken(request: NodeTokenRequest): Promise<string> {
  const jti = socketTokenId(request.user.id, request.serverUuid);
  const iat = Math.floor(request.now.getTime() / 1000);
  return new SignJWT({
    ...request.claims,
    scope: request.scope,
    server_uuid: request.serverUuid,
    user_uuid: request.user.uuid,
    user_id: request.user.id,
    unique_id: randomBytes(12).toString('base64url'),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', jti })
    .setIssuer(request.panelOrigin)
    .setAudience(nodeConnection(request.node, request.panelOrigin))
    .setJti(jti)
    .setIssuedAt(iat)
    .setNotBefore(iat - 5 * 60)
    .setExpirationTime(iat + request.ttlSeconds)
    .sign(tokenKey(request.key));
}

/**
 * Makes the server's node refuse every console token of `userId` issued until now (a subuser's
 * rights changed or were taken away); the user's console must ask for a new one.
 */
export async function revokeSocketTokens(daemon: NodeDaemon, serverUuid: string, userId: number): Promise<void> {
  await daemon.servers.revokeSocketTokens(serverUuid, [socketTokenId(userId, serverUuid)]);
}

/**
 * Revokes every token of `user` on every server they can reach (their password changed, so a
 * console opened with a stolen session must not outlive it). A node that cannot be told is
 * skipped: the change stands, as a subuser change does.
 */
export async function revokeUserTokens(db: Db, daemons: NodeDaemons, user: Pick<UserRow, 'id' | 'root_admin'>): Promise<void> {
  const reachable = await servers.reachableBy(db, { userId: user.id, isAdmin: user.root_admin === 1 });
  const byNode = new Map<number, string[]>();
  for (const s of reachable) byNode.set(s.node_id, [...(byNode.get(s.node_id) ?? []), s.uuid]);
  for (const [nodeId, uuids] of byNode) {
    const node = await nodes.findById(db, nodeId);
    if (!node) continue;
    const daemon = daemons.forNode(node);
    await Promise.all(uuids.map((uuid) => revokeSocketTokens(daemon, uuid, user.id).catch(() => undefined)));
  }
}

/**
 * A token for `user` on `server`, signed for the server's node, and the node's address to use it
 * at. Also answers the server's node (a route may check its maintenance flag).
 */
export async function tokenForServer(
  db: Db,
  daemons: Pick<NodeDaemons, 'tokenOf'>,
  request: Omit<NodeTokenRequest, 'node' | 'key' | 'serverUuid'> & { server: ServerRow },
): Promise<{ token: string; connection: string }> {
  const node = await nodes.findById(db, request.server.node_id);
  if (!node) throw new Error(`Server ${request.server.uuid} has no node.`);
  const token = await signNodeToken({ ...request, node, key: daemons.tokenOf(node), serverUuid: request.server.uuid });
  return { token, connection: nodeConnection(node, request.panelOrigin) };
}

/** How long a transfer link (a download, an upload) works, as the reference panel signs them. */
export const TRANSFER_TOKEN_SECONDS = 15 * 60;

/**
 * The reference panel's signed transfers: a link to the node itself (`/download/file`,
 * `/upload/file`, `/download/backup`), which trusts the signature (one user, one server, 15
 * minutes, used once), never the session. Answers the `signed_url` resource.
 */
export async function signedTransferUrl(
  db: Db,
  daemons: Pick<NodeDaemons, 'tokenOf'>,
  request: Omit<NodeTokenRequest, 'node' | 'key' | 'serverUuid' | 'ttlSeconds'> & { server: ServerRow; path: string },
): Promise<{ object: 'signed_url'; attributes: { url: string } }> {
  const { token, connection } = await tokenForServer(db, daemons, { ...request, ttlSeconds: TRANSFER_TOKEN_SECONDS });
  return { object: 'signed_url', attributes: { url: `${connection}${request.path}?token=${token}` } };
}
