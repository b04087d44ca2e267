import { backups, serverTransfers } from '../db/repos';
import type { NodeRow } from '../db/schema';
import { logActivities, type ActivityInput } from './activity';
import { backupEvent } from './backups';
import { finishTransfer, type FinishDeps } from './server-transfers';

/*
 * What a node's restart ends (its `POST /api/remote/servers/reset` at boot), beside the installs and
 * restores the route resets: nothing it ran before survived the restart, so its backups still
 * marked running and the transfers it was sending or receiving have failed. The reference panel
 * leaves them running for ever; a backup left so would also hold a place under the backup limit
 * and a transfer would keep the server "transferring".
 */

export const SOURCE_RESTARTED = 'The source node restarted while it was sending the server.';
export const TARGET_RESTARTED = 'The target node restarted while it was receiving the server.';

export async function failWorkCutOffByRestart(deps: FinishDeps, node: NodeRow): Promise<{ backups: number; transfers: number }> {
  const now = deps.clock.now();
  const entries: ActivityInput[] = [];
  for (const backup of await backups.runningOnNode(deps.db, node.id)) {
    const failed = await backups.finish(deps.db, backup.server_id, backup.uuid, { successful: false, checksum: null, bytes: 0, now });
    if (failed) entries.push(backupEvent({ id: failed.server_id }, failed, 'server:backup.fail', { name: failed.name }, now));
  }
  await logActivities(deps.db, entries);
  let transfers = 0;
  for (const transfer of await serverTransfers.runningOfNode(deps.db, node.id)) {
    // A node may be both ends (a test, or a misconfigured panel): then it was sending.
    const reason = transfer.old_node === node.id ? SOURCE_RESTARTED : TARGET_RESTARTED;
    if (await finishTransfer(deps, transfer.server_id, false, reason)) transfers += 1;
  }
  return { backups: entries.length, transfers };
}
