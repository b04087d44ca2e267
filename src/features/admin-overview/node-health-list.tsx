import { Link } from 'react-router';
import type { OverviewNode } from '../../contract/admin-overview';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../components/ui/cn';
import { formatAllocated, formatPercent, formatRelativeTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { useT } from './messages';

/** A node as the list shows it; `servers` null where the panel does not say (the nodes page without the overview). */
export type HealthNode = Omit<OverviewNode, 'servers'> & { servers: number | null };

function health(node: HealthNode) {
  if (node.reachable === null) return { tone: 'neutral', label: 'adminOverview.health.unchecked' } as const;
  return node.reachable
    ? ({ tone: 'success', label: 'adminOverview.health.reachable' } as const)
    : ({ tone: 'danger', label: 'adminOverview.health.unreachable' } as const);
}

/** Allocated against offered, as a bar; a node that offers nothing said has no bar, only the figure. */
function Usage({ label, allocated, total }: { label: string; allocated: number; total: number }) {
  const percent = total > 0 ? Math.round((allocated / total) * 100) : null;
  const t = useT();
  const locale = useLocale();
  return (
    <div className="min-w-0">
      <div className="flex flex-wrap items-baseline justify-between gap-x-2 text-xs">
        <span className="text-zinc-400">{label}</span>
        <span className="text-zinc-200">{formatAllocated(allocated, total, locale)}</span>
      </div>
      {percent !== null && (
        <div
          role="meter"
          aria-label={t('adminOverview.allocatedLabel', { label })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.min(percent, 100)}
          aria-valuetext={formatPercent(percent, locale)}
          className="mt-1 h-1.5 overflow-hidden rounded-full bg-zinc-800"
        >
          <div
            className={cn('h-full rounded-full', percent > 100 ? 'bg-red-500' : percent > 85 ? 'bg-amber-500' : 'bg-sky-500')}
            style={{ width: `${Math.min(percent, 100)}%` }}
          />
        </div>
      )}
    </div>
  );
}

/**
 * Each node: whether it answers (and its version, or why not), its servers and what their limits
 * take of it. With `href` each name links to the node's page (the admin area's nodes list).
 */
export function NodeHealthList({ nodes, now, href }: { nodes: readonly HealthNode[]; now: Date; href?: (node: HealthNode) => string }) {
  const t = useT();
  const locale = useLocale();
  return (
    <ul aria-label={t('adminOverview.nodes')} className="divide-y divide-zinc-800/80">
      {nodes.map((node) => {
        const state = health(node);
        return (
          <li
            key={node.uuid}
            aria-label={node.name}
            className="grid grid-cols-[minmax(0,1fr)] gap-3 py-3 first:pt-0 last:pb-0 sm:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]"
          >
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2 font-medium text-zinc-100">
                {href ? (
                  <Link to={href(node)} className="break-all text-sky-300 hover:text-sky-200">
                    {node.name}
                  </Link>
                ) : (
                  <span className="break-all">{node.name}</span>
                )}
                <Badge tone={state.tone}>{t(state.label)}</Badge>
                {node.local && <Badge>{t('adminOverview.inPanel')}</Badge>}
              </p>
              <p className="mt-1 text-xs text-zinc-400">
                {node.servers !== null && t('adminOverview.serverCount', { count: node.servers })}
                {node.version && `${node.servers !== null ? ' · ' : ''}${t('adminOverview.nodeVersion', { version: node.version })}`}
                {node.reachable === false &&
                  node.last_seen &&
                  ` · ${t('adminOverview.lastSeen', { when: formatRelativeTime(node.last_seen, now, locale) })}`}
              </p>
              {node.reachable === false && node.reason && <p className="mt-1 text-xs break-words text-red-300">{node.reason}</p>}
            </div>
            <div className="flex min-w-0 flex-col gap-2">
              <Usage label={t('adminOverview.memory')} allocated={node.memory.allocated} total={node.memory.total} />
              <Usage label={t('adminOverview.disk')} allocated={node.disk.allocated} total={node.disk.total} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
