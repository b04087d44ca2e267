import type { Db } from '../db';
import { nodes, servers } from '../db/repos';
import type { ServerRow } from '../db/schema';
import type { SecretBox } from '../lib/secret-box';
import type { NodeDaemons } from './node-daemons';
import { deleteDatabase, listDatabases } from './server-databases';

/*
 * Deleting a server, in the reference panel's order (ServerDeletionService): the node first (it
 * kills the process and removes the volume and the backups beside it), then each database on its
 * host, then the records. Every step is safe to repeat, so a deletion refused half-way (a database
 * host that cannot be reached) is finished by running it again; the server stays listed until then.
 */

export interface ServerDeletion {
  server: string;
  databases: string[];
}

export async function deleteServer(db: Db, daemons: NodeDaemons, box: SecretBox, server: ServerRow): Promise<ServerDeletion> {
  const node = await nodes.findById(db, server.node_id);
  if (node) await daemons.forNode(node).servers.delete(server.uuid);
  const dropped: string[] = [];
  for (const target of await listDatabases(db, server)) {
    await deleteDatabase(db, box, target);
    dropped.push(target.row.database);
  }
  // Subusers, backup and database records and variable values go with the row; allocations are freed.
  await servers.remove(db, server.id);
  return { server: server.uuid, databases: dropped };
}
