import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { ActivityEvent } from '../../src/contract';
import type { AppDeps } from '../deps';
import { servers, users } from '../db/repos';
import { callingNode } from '../http/node-authentication';
import { HttpError, parseWith } from '../http/errors';
import { logActivities, type ActivityInput } from '../services/activity';
import { nodeSftpAuthenticator } from '../services/sftp-auth';

/*
 * The remote API's two calls a node makes about its users (peers.md §4.7, §4.8): the activity it
 * saw (uploads, SFTP, console and power on the node itself) and SFTP sign-in. Both answer only
 * about servers on the calling node.
 */

/** What Wings reports as activity: anything else a node sends is not a node's to say. */
const NODE_EVENTS = [
  'server:console.command',
  'server:power.start',
  'server:power.stop',
  'server:power.restart',
  'server:power.kill',
  'server:file.uploaded',
  'server:sftp.write',
  'server:sftp.create',
  'server:sftp.create-directory',
  'server:sftp.rename',
  'server:sftp.delete',
] as const satisfies readonly ActivityEvent[];

const MAX_BATCH = 100;

const activityBatch = z.object({
  data: z
    .array(
      z.object({
        user: z.optional(z.nullable(z.uuid())),
        server: z.uuid(),
        event: z.string().check(z.maxLength(64)),
        metadata: z._default(z.record(z.string().check(z.maxLength(64)), z.unknown()), {}),
        ip: z.string().check(z.maxLength(45)),
        timestamp: z.iso.datetime({ offset: true }),
      }),
    )
    .check(z.maxLength(MAX_BATCH)),
});

const sftpAuthRequest = z.object({
  type: z._default(z.enum(['password', 'public_key']), 'password'),
  username: z.string().check(z.maxLength(255)),
  password: z.string().check(z.maxLength(16 * 1024)),
  ip: z._default(z.string().check(z.maxLength(45)), ''),
});

const isNodeEvent = (event: string): event is (typeof NODE_EVENTS)[number] => (NODE_EVENTS as readonly string[]).includes(event);

export function remoteNodeCallRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;

  /** Stored only for Wings' server events on servers of the calling node; the rest is dropped, as the reference does. */
  app.post('/activity', async (request, reply) => {
    const node = callingNode(request);
    const { data } = parseWith(activityBatch, request.body);
    const now = deps.clock.now();
    const entries: ActivityInput[] = [];
    for (const entry of data) {
      if (!isNodeEvent(entry.event)) continue;
      const server = await servers.findByIdentifier(db, entry.server);
      if (!server || server.uuid !== entry.server.toLowerCase() || server.node_id !== node.id) continue;
      const actor = entry.user ? await users.findByUuid(db, entry.user) : undefined;
      const at = new Date(entry.timestamp);
      entries.push({
        event: entry.event,
        ip: entry.ip,
        actorId: actor?.id ?? null,
        properties: entry.metadata,
        subjects: [{ type: 'server', id: server.id }],
        // A node's clock cannot date an entry into the future.
        timestamp: at.getTime() > now.getTime() ? now : at,
      });
    }
    if (entries.length > 0) await logActivities(db, entries);
    return reply.status(200).send();
  });

  const authenticator = nodeSftpAuthenticator(deps);
  app.post('/sftp/auth', async (request) => {
    const node = callingNode(request);
    const body = parseWith(sftpAuthRequest, request.body);
    const answer = await authenticator({ node, nodeIp: request.ip, ...body });
    if (answer === 'throttled')
      throw new HttpError(429, 'TooManyRequestsHttpException', 'Too many login attempts for this account, please try again later.');
    if (answer === 'no-server') throw new HttpError(400, 'BadRequestHttpException', 'No valid server identifier was included in the request.');
    if (answer === 'conflict')
      throw new HttpError(409, 'ConflictHttpException', 'This server is currently in a state that does not allow SFTP access.');
    if (answer === null) throw new HttpError(403, 'AccessDeniedHttpException', 'Authorization credentials were not correct, please try again.');
    return { user: answer.user, server: answer.server, permissions: answer.permissions };
  });
}
