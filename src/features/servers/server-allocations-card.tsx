import { Link } from 'react-router';
import type { Allocation } from '../../contract/network';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { CopyButton } from '../../components/ui/copy-button';
import { EmptyState } from '../../components/ui/states';
import { useT } from './messages';

/** `ip_alias` when set (what players type), else the IP; IPv6 in brackets. */
export function allocationAddress(a: Pick<Allocation, 'ip' | 'ip_alias' | 'port'>): string {
  const host = a.ip_alias?.trim() || a.ip;
  return `${host.includes(':') ? `[${host}]` : host}:${a.port}`;
}

/**
 * The server's addresses, primary first. Without allocation.read the API returns only the primary
 * one; with it, `manageHref` links to the Network page.
 */
export function ServerAllocationsCard({ allocations, manageHref }: { allocations: readonly Allocation[]; manageHref?: string }) {
  const t = useT();
  const sorted = [...allocations].sort((a, b) => Number(b.is_default) - Number(a.is_default));
  return (
    <Card
      title={t('servers.allocations.title')}
      actions={
        manageHref && (
          <Link to={manageHref} className="rounded text-sm text-sky-300 hover:text-sky-200">
            {t('servers.allocations.manage')}
          </Link>
        )
      }
    >
      {sorted.length === 0 ? (
        <EmptyState title={t('servers.allocations.empty')} />
      ) : (
        <ul className="divide-y divide-zinc-800/80">
          {sorted.map((a) => {
            const address = allocationAddress(a);
            return (
              <li key={a.id} className="flex items-start justify-between gap-3 py-2 first:pt-0 last:pb-0">
                <div className="min-w-0">
                  <div className="flex flex-wrap items-center gap-2">
                    <code className="font-mono text-sm break-all text-zinc-100">{address}</code>
                    {a.is_default && <Badge tone="info">{t('servers.allocations.primary')}</Badge>}
                  </div>
                  {a.ip_alias && a.ip_alias !== a.ip && <p className="mt-0.5 font-mono text-xs text-zinc-400">{a.ip}</p>}
                  {a.notes ? <p className="mt-0.5 text-sm break-words text-zinc-400">{a.notes}</p> : null}
                </div>
                <CopyButton value={address} label={t('servers.copyAddress')} className="shrink-0" />
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
