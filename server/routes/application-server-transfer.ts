import type { FastifyInstance } from 'fastify';
import { applicationServerTransferEndpoints, type ServerTransfer } from '../../src/contract';
import { panelOrigin } from '../config';
import type { ServerTransferRow } from '../db/schema-transfers';
import { nodes } from '../db/repos';
import type { AppDeps } from '../deps';
import { validationError } from '../http/errors';
import { adminRoute } from '../http/routes';
import { latestTransfer, startTransferTo } from '../services/server-transfers';
import { boundServer } from './application-server-resource';
import { serverEvent } from './application-server-writes';

/*
 * Moving a server to another node from the admin area (or a billing system): the transfer service
 * the CLI's `server:transfer` uses, answered with 202 as soon as the source node has taken it on;
 * its end comes later from the target node, and the state route tells how it went.
 */

function transferResource(row: ServerTransferRow): { object: 'server_transfer'; attributes: ServerTransfer } {
  return {
    object: 'server_transfer',
    attributes: {
      id: row.id,
      state: row.successful === null ? 'running' : row.successful === 1 ? 'done' : 'failed',
      reason: row.reason,
      old_node: row.old_node,
      new_node: row.new_node,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

export async function applicationServerTransferRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const endpoints = applicationServerTransferEndpoints;

  await adminRoute(
    app,
    endpoints.start,
  )(async ({ request, reply, caller, body }) => {
    const server = await boundServer(deps, (request.params as { server: string }).server);
    const target = await nodes.findById(deps.db, body.node_id);
    if (!target) throw validationError('node_id', 'The selected node id is invalid.', 'exists');
    const chosen = body.allocation_id === undefined ? undefined : { allocation: body.allocation_id, additional: body.allocation_additional ?? [] };
    const transfer = await startTransferTo(
      {
        db: deps.db,
        daemons: deps.nodes,
        clock: deps.clock,
        panelOrigin: panelOrigin(deps.config),
        defaultPorts: deps.config.allocationPorts,
        warn: (message) => request.log.warn(message),
      },
      server.id,
      target,
      chosen,
    );
    await serverEvent(deps, request, caller, 'admin:server.transfer', server, { node: target.name });
    reply.status(202);
    return transferResource(transfer);
  });

  await adminRoute(
    app,
    endpoints.latest,
  )(async ({ request }) => {
    const server = await boundServer(deps, (request.params as { server: string }).server);
    const transfer = await latestTransfer(deps.db, server.id);
    return transfer ? transferResource(transfer) : { object: 'server_transfer' as const, attributes: null };
  });
}
