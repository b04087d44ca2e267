import { useQuery } from '@tanstack/react-query';
import type { ServerTransfer } from '../../contract/admin-server-transfer';
import { formatDateTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { adminServerQueries } from './api';
import { useT } from './messages';

/**
 * How the server's latest move went: running (refreshed until it ends), failed with the reason, or
 * done. Nodes are named from the transfer dialog's node list (by id until it has loaded, or for a
 * node since deleted).
 */
export function TransferStatus({ transfer }: { transfer: ServerTransfer }) {
  const t = useT();
  const locale = useLocale();
  const nodes = useQuery(adminServerQueries.nodes());
  const node = (id: number) => nodes.data?.data.find((n) => n.attributes.id === id)?.attributes.name ?? `#${id}`;
  const text =
    transfer.state === 'running'
      ? t('adminServers.transfer.running', { node: node(transfer.new_node), time: formatDateTime(transfer.created_at, locale) })
      : transfer.state === 'failed'
        ? t('adminServers.transfer.failed', { node: node(transfer.new_node), reason: transfer.reason ?? t('adminServers.transfer.noReason') })
        : t('adminServers.transfer.done', {
            from: node(transfer.old_node),
            to: node(transfer.new_node),
            time: formatDateTime(transfer.updated_at, locale),
          });
  return (
    <p role="status" className="rounded-lg bg-zinc-900/60 p-3 text-sm text-zinc-200 ring-1 ring-zinc-800">
      {text}
    </p>
  );
}
