import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps';
import { servers } from '../db/repos';
import type { NodeRow, ServerRow } from '../db/schema';
import { callingNode } from '../http/node-authentication';
import { conflict, forbidden, notFound } from '../http/errors';
import { finishTransfer, NOT_TRANSFERRING, runningTransfer } from '../services/server-transfers';

/*
 * The end of a transfer, as Wings' target reports it: `GET|POST
 * /api/remote/servers/{uuid}/transfer/{success|failure}`, answered 204. Only the transfer's target
 * node may report (the source could otherwise claim a success the target never saw); any other
 * node learns nothing of the server (404), and a server not being moved is 409 as the reference.
 */

/** The server, seen by the node it lives on or by the target of its running transfer (which fetches its configuration). */
export async function serverOnNodeOrTarget(deps: AppDeps, node: NodeRow, uuid: string): Promise<ServerRow> {
  const server = await servers.findByIdentifier(deps.db, uuid);
  if (!server || server.uuid !== uuid.toLowerCase()) throw notFound();
  if (server.node_id === node.id) return server;
  if ((await runningTransfer(deps.db, server.id))?.new_node === node.id) return server;
  throw notFound();
}

export function remoteTransferRoutes(app: FastifyInstance, deps: AppDeps): void {
  const ended = (successful: boolean) => async (request: FastifyRequest<{ Params: { uuid: string } }>, reply: FastifyReply) => {
    const node = callingNode(request);
    const server = await servers.findByIdentifier(deps.db, request.params.uuid);
    if (!server || server.uuid !== request.params.uuid.toLowerCase()) throw notFound();
    const transfer = await runningTransfer(deps.db, server.id);
    if (!transfer) {
      if (server.node_id === node.id) throw conflict(NOT_TRANSFERRING);
      throw notFound();
    }
    // The target reports how it ended; the source may only say it failed (Wings' source does, when
    // its stream is refused), never that the server arrived.
    const bySource = transfer.new_node !== node.id;
    if (bySource && (server.node_id !== node.id || successful)) {
      if (server.node_id === node.id) throw forbidden('Only the node the server is moving to reports that its transfer succeeded.');
      throw notFound();
    }
    const reason = successful ? null : `The ${bySource ? 'source' : 'target'} node reported that the transfer failed.`;
    const warn = (m: string) => app.log.warn(m);
    if (!(await finishTransfer({ db: deps.db, daemons: deps.nodes, clock: deps.clock, warn }, server.id, successful, reason)))
      throw conflict(NOT_TRANSFERRING);
    return reply.status(204).send();
  };
  for (const [outcome, successful] of [
    ['success', true],
    ['failure', false],
  ] as const) {
    app.route<{ Params: { uuid: string } }>({ method: ['GET', 'POST'], url: `/servers/:uuid/transfer/${outcome}`, handler: ended(successful) });
  }
}
