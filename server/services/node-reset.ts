import { nodes, serverTransfers } from '../db/repos';
import type { NodeRow } from '../db/schema';
import { logActivities } from './activity';
import { failedBackupsOfNode } from './backups';
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
  const entries = await failedBackupsOfNode(deps.db, node.id, deps.clock.now());
  await logActivities(deps.db, entries);
  return { backups: entries.length, transfers: await failTransfersCutOff(deps, node) };
}

/** The transfers `node` was sending or receiving when it restarted (the panel's own node: when the panel did). */
export async function failTransfersCutOff(deps: FinishDeps, node: NodeRow): Promise<number> {
  let transfers = 0;
  for (const transfer of await serverTransfers.runningOfNode(deps.db, node.id)) {
    // A node may be both ends (a test, or a misconfigured panel): then it was sending.
    const reason = transfer.old_node === node.id ? SOURCE_RESTARTED : TARGET_RESTARTED;
    if (await finishTransfer(deps, transfer.server_id, false, reason)) transfers += 1;
  }
  return transfers;
}

/** At the panel's start: its own node ran in the panel's process, so its transfers were cut off with it. */
export async function failLocalTransfersCutOff(deps: FinishDeps): Promise<number> {
  const local = await nodes.local(deps.db);
  return local ? failTransfersCutOff(deps, local) : 0;
}
