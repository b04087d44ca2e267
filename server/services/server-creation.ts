import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { servers } from '../db/repos';
import type { NewServer, ServerRow } from '../db/schema';

/** What a new server is made of; the rest (its ids, status, timestamps) is the same for all. */
export type NewServerFields = Omit<NewServer, 'uuid' | 'uuid_short' | 'status' | 'is_transferring' | 'allocation_id' | 'created_at' | 'updated_at'>;

/**
 * The one way a server row comes to be, for the admin CLI and the application API: a unique
 * short id, the row in `installing` (until the node reports its install's end, the reference's
 * order), its primary allocation from `allocate` (given the new row's id, in the same
 * transaction) and its variables' values. Run it inside a write transaction; then the node
 * creates and installs it (`installServer`).
 */
export async function insertServer(
  trx: Db,
  fields: NewServerFields,
  variables: ReadonlyMap<number, string>,
  allocate: (serverId: number) => Promise<number>,
  now: Date,
): Promise<ServerRow> {
  // Regenerated on the rare collision of the first 8 characters, which are the short id.
  let uuid = randomUUID();
  while (await servers.shortIdTaken(trx, uuid.slice(0, 8))) uuid = randomUUID();
  const ts = now.toISOString();
  const row = await servers.insert(trx, {
    ...fields,
    uuid,
    uuid_short: uuid.slice(0, 8),
    status: 'installing',
    is_transferring: 0,
    allocation_id: null,
    created_at: ts,
    updated_at: ts,
  });
  const primary = await allocate(row.id);
  await servers.insertVariableValues(
    trx,
    [...variables].map(([variableId, value]) => ({ server_id: row.id, variable_id: variableId, variable_value: value })),
  );
  return servers.setPrimaryAllocation(trx, row.id, primary);
}
