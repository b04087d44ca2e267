import type { FastifyInstance } from 'fastify';
import { networkEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import { allocations, servers } from '../db/repos';
import { addressOf, allocationOf, createAllocation, deleteAllocation } from '../services/allocations';
import { allocationResource } from '../services/server-view';
import { allocationRules } from '../services/placement';
import { serverRoute } from '../http/routes';

/*
 * The network tab (reference panel): a server's allocations, their notes, which one is primary.
 * Changes that move ports are pushed to the node; they apply on the server's next start.
 */
export async function networkRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const idOf = (request: { params: unknown }) => (request.params as { allocation: string }).allocation;

  await serverRoute(
    app,
    deps,
    networkEndpoints.list,
  )(async ({ server }) => ({
    object: 'list' as const,
    data: (await allocations.ofServers(db, [server.id])).map((a) => allocationResource(a, a.id === server.allocation_id)),
  }));

  await serverRoute(
    app,
    deps,
    networkEndpoints.create,
  )(async ({ server, access, daemon, activity }) => {
    // The port range and address of the server's own node (null: the panel's PANEL_ALLOCATION_PORTS).
    const created = await createAllocation(db, server, allocationRules(access.node, deps.config.allocationPorts));
    await daemon.servers.sync(server.uuid);
    await activity('server:allocation.create', { allocation: addressOf(created) }, [{ type: 'allocation', id: created.id }]);
    return allocationResource(created, false);
  });

  await serverRoute(
    app,
    deps,
    networkEndpoints.notes,
  )(async ({ request, server, body, activity }) => {
    const allocation = await allocationOf(db, server, idOf(request));
    const notes = body.notes === '' ? null : body.notes;
    const updated = await allocations.setNotes(db, allocation.id, notes);
    if ((allocation.notes || null) !== notes) {
      await activity('server:allocation.notes', { allocation: addressOf(allocation), old: allocation.notes, new: notes }, [
        { type: 'allocation', id: allocation.id },
      ]);
    }
    return allocationResource(updated, updated.id === server.allocation_id);
  });

  await serverRoute(
    app,
    deps,
    networkEndpoints.primary,
  )(async ({ request, server, daemon, activity }) => {
    const allocation = await allocationOf(db, server, idOf(request));
    await servers.setPrimaryAllocation(db, server.id, allocation.id);
    await daemon.servers.sync(server.uuid);
    await activity('server:allocation.primary', { allocation: addressOf(allocation) }, [{ type: 'allocation', id: allocation.id }]);
    return allocationResource(allocation, true);
  });

  await serverRoute(
    app,
    deps,
    networkEndpoints.delete,
  )(async ({ request, server, daemon, activity }) => {
    const allocation = await allocationOf(db, server, idOf(request));
    await deleteAllocation(db, server, allocation);
    await daemon.servers.sync(server.uuid);
    await activity('server:allocation.delete', { allocation: addressOf(allocation) }, [{ type: 'allocation', id: allocation.id }]);
  });
}
