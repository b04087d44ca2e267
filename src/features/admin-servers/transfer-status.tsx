import { useQuery } from '@tanstack/react-query';
import type { ServerTransfer } from '../../contract/admin-server-transfer';
import { formatDateTime } from '../../lib/format';
import { adminServerQueries } from './api';

/**
 * How the server's latest move went: running (refreshed until it ends), failed with the reason, or
 * done. Nodes are named from the transfer dialog's node list (by id until it has loaded, or for a
 * node since deleted).
 */
export function TransferStatus({ transfer }: { transfer: ServerTransfer }) {
  const nodes = useQuery(adminServerQueries.nodes());
  const node = (id: number) => {
    const name = nodes.data?.data.find((n) => n.attributes.id === id)?.attributes.name;
    return name === undefined ? `node #${id}` : `node ${name}`;
  };
  const text =
    transfer.state === 'running'
      ? `Moving to ${node(transfer.new_node)} since ${formatDateTime(transfer.created_at)}: its owner cannot use it until the move ends.`
      : transfer.state === 'failed'
        ? `The move to ${node(transfer.new_node)} failed (${transfer.reason ?? 'no reason was given'}); the server stayed where it was.`
        : `Moved from ${node(transfer.old_node)} to ${node(transfer.new_node)} on ${formatDateTime(transfer.updated_at)}.`;
  return (
    <p role="status" className="rounded-lg bg-zinc-900/60 p-3 text-sm text-zinc-200 ring-1 ring-zinc-800">
      {text}
    </p>
  );
}
