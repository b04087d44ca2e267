import { Link } from 'react-router';
import type { OverviewNode } from '../../contract/admin-overview';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../components/ui/cn';
import { formatAllocated, formatCount, formatRelativeTime } from '../../lib/format';

/** A node as the list shows it; `servers` null where the panel does not say (the nodes page without the overview). */
export type HealthNode = Omit<OverviewNode, 'servers'> & { servers: number | null };

function health(node: HealthNode): { tone: 'success' | 'danger' | 'neutral'; label: string } {
  if (node.reachable === null) return { tone: 'neutral', label: 'Not checked yet' };
  return node.reachable ? { tone: 'success', label: 'Reachable' } : { tone: 'danger', label: 'Not reachable' };
}

/** Allocated against offered, as a bar; a node that offers nothing said has no bar, only the figure. */
function Usage({ label, allocated, total }: { label: string; allocated: number; total: number }) {
  const percent = total > 0 ? Math.round((allocated / total) * 100) : null;
  return (
    <div className="min-w-0">
      <div className="flex items-baseline justify-between gap-2 text-xs">
        <span className="text-zinc-400">{label}</span>
        <span className="text-zinc-200">{formatAllocated(allocated, total)}</span>
      </div>
      {percent !== null && (
        <div
          role="meter"
          aria-label={`${label} allocated`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.min(percent, 100)}
          aria-valuetext={`${percent}%`}
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
  return (
    <ul aria-label="Nodes" className="divide-y divide-zinc-800/80">
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
                <Badge tone={state.tone}>{state.label}</Badge>
                {node.local && <Badge>In this panel</Badge>}
              </p>
              <p className="mt-1 text-xs text-zinc-400">
                {node.servers !== null && formatCount(node.servers, 'server')}
                {node.version && `${node.servers !== null ? ' · ' : ''}version ${node.version}`}
                {node.reachable === false && node.last_seen && ` · last seen ${formatRelativeTime(node.last_seen, now)}`}
              </p>
              {node.reachable === false && node.reason && <p className="mt-1 text-xs break-words text-red-300">{node.reason}</p>}
            </div>
            <div className="flex min-w-0 flex-col gap-2">
              <Usage label="Memory" allocated={node.memory.allocated} total={node.memory.total} />
              <Usage label="Disk" allocated={node.disk.allocated} total={node.disk.total} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
