import type { Db } from '../db';
import { locations, nodes } from '../db/repos';
import type { NodeRow } from '../db/schema';
import { badRequest, validationError } from '../http/errors';
import type { NodeWrite } from '../../src/contract/nodes';
import type { NodeDaemons } from './node-daemons';
import { checkNodeInput, createNode, daemonUrl, NodeError, type NodeInput } from './nodes';

/*
 * Nodes as the application API writes them (issue 25 §2): the reference's StoreNodeRequest fields
 * turned into the nodes service's input, with its refusals answered as 422 on the field they are
 * about, and its deletion rule (no servers on it; HasActiveServersException).
 */

export const SERVERS_ATTACHED = 'A node must have no servers linked to it in order to be deleted.';
export const LOCAL_KEPT = "The panel's own node cannot be deleted.";

function inputOf(body: NodeWrite): NodeInput {
  return {
    name: body.name,
    fqdn: body.fqdn,
    scheme: body.scheme,
    daemonPort: body.daemon_listen,
    sftpPort: body.daemon_sftp,
    // Its allocations are made through the allocations endpoint, as the reference's are.
    ports: null,
    ip: null,
    memory: body.memory,
    disk: body.disk,
    locationId: body.location_id,
    settings: {
      public: body.public ?? true,
      behindProxy: body.behind_proxy ?? false,
      maintenance: body.maintenance_mode ?? false,
      memoryOverallocate: body.memory_overallocate,
      diskOverallocate: body.disk_overallocate,
      uploadSize: body.upload_size ?? 100,
      daemonBase: body.daemon_base,
    },
  };
}

async function checkLocation(db: Db, input: NodeInput): Promise<void> {
  if (input.locationId === undefined || !(await locations.findById(db, input.locationId))) {
    throw validationError('location_id', 'The selected location id is invalid.', 'exists');
  }
}

async function checkWrite(db: Db, input: NodeInput, exceptId?: number): Promise<void> {
  await checkLocation(db, input);
  const refused = checkNodeInput(input);
  if (refused) throw validationError(refused.startsWith('The FQDN') ? 'fqdn' : 'name', refused);
  const named = await nodes.findByName(db, input.name);
  if (named && named.id !== exceptId) throw validationError('name', `A node named ${input.name} exists already.`, 'unique');
}

export async function createNodeFromApi(db: Db, daemons: Pick<NodeDaemons, 'newCredentials'>, body: NodeWrite): Promise<NodeRow> {
  const input = inputOf(body);
  await checkWrite(db, input);
  try {
    return await createNode(db, daemons, input);
  } catch (error) {
    if (error instanceof NodeError) throw validationError('name', error.message);
    throw error;
  }
}

/*
 * The panel's own node has no address of its own (its daemon is this panel, its SFTP address the
 * panel's configuration): only where deployment may put servers and what it offers them change.
 */
export async function updateNodeFromApi(
  db: Db,
  daemons: Pick<NodeDaemons, 'newCredentials'>,
  node: NodeRow,
  body: NodeWrite,
  now: Date,
): Promise<NodeRow> {
  const input = inputOf(body);
  const local = node.daemon_base_url === null;
  if (local) await checkLocation(db, input);
  else await checkWrite(db, input, node.id);
  // Fields left out of a PATCH are kept (the required ones are always sent).
  const offer = {
    location_id: input.locationId,
    memory: input.memory,
    disk: input.disk,
    memory_overallocate: body.memory_overallocate,
    disk_overallocate: body.disk_overallocate,
    ...(body.public === undefined ? {} : { public: body.public ? 1 : 0 }),
    ...(body.maintenance_mode === undefined ? {} : { maintenance_mode: body.maintenance_mode ? 1 : 0 }),
    ...(body.upload_size === undefined ? {} : { upload_size: body.upload_size }),
    updated_at: now.toISOString(),
  };
  if (local) return nodes.update(db, node.id, offer);
  return nodes.update(db, node.id, {
    ...offer,
    ...(body.behind_proxy === undefined ? {} : { behind_proxy: body.behind_proxy ? 1 : 0 }),
    ...(body.daemon_base === undefined ? {} : { daemon_base: body.daemon_base }),
    name: input.name,
    fqdn: input.fqdn,
    sftp_port: input.sftpPort,
    daemon_base_url: daemonUrl(input),
    // A new secret: the node must be given its new configuration (the reference's reset_secret).
    ...(body.reset_secret === true ? daemons.newCredentials() : {}),
  });
}

export async function deleteNodeFromApi(db: Db, node: NodeRow): Promise<void> {
  if (node.daemon_base_url === null) throw badRequest(LOCAL_KEPT, 'DisplayException');
  if (!(await nodes.removeEmpty(db, node.id))) throw badRequest(SERVERS_ATTACHED, 'HasActiveServersException');
}
