import type { Server } from '../../contract/servers';
import type { ServerStats } from '../../contract/websocket';
import { cn } from '../../components/ui/cn';
import { formatBytes, formatCpuLimit, formatMemoryLimit, formatPercent } from '../../lib/format';

interface Figure {
  term: string;
  value: string;
  /** The limit under a live figure ("of 2 GiB"); absent when the figure is the limit. */
  of?: string;
  /** Share of the limit, for the colour of a figure close to it. */
  share?: number | null;
}

/**
 * A card's three figures. A running server shows what it uses against its limits (as the
 * reference panel's list does); a stopped one, or one whose state is not known yet, shows the
 * limits alone, named as limits, so "2 GiB" is never read as memory in use.
 */
export function serverFigures(limits: Server['limits'], stats: ServerStats['attributes'] | null): Figure[] {
  const live = stats && stats.current_state !== 'offline' ? stats.resources : null;
  if (!live) {
    return [
      { term: 'Memory limit', value: formatMemoryLimit(limits.memory) },
      { term: 'Disk limit', value: formatMemoryLimit(limits.disk) },
      { term: 'CPU limit', value: formatCpuLimit(limits.cpu) },
    ];
  }
  const mib = (limit: number) => (limit > 0 ? `of ${formatMemoryLimit(limit)}` : 'no limit');
  const share = (used: number, limit: number) => (limit > 0 ? used / limit : null);
  return [
    { term: 'Memory', value: formatBytes(live.memory_bytes), of: mib(limits.memory), share: share(live.memory_bytes, limits.memory * 1024 * 1024) },
    { term: 'Disk', value: formatBytes(live.disk_bytes), of: mib(limits.disk), share: share(live.disk_bytes, limits.disk * 1024 * 1024) },
    {
      term: 'CPU',
      value: formatPercent(live.cpu_absolute),
      of: limits.cpu > 0 ? `of ${formatPercent(limits.cpu)}` : 'no limit',
      share: share(live.cpu_absolute, limits.cpu),
    },
  ];
}

export function ServerFigures({ limits, stats }: { limits: Server['limits']; stats: ServerStats['attributes'] | null }) {
  return (
    <dl className="grid w-full grid-cols-3 gap-x-4 text-sm sm:w-auto sm:grid-cols-[repeat(3,6rem)] sm:gap-x-4">
      {serverFigures(limits, stats).map((f) => (
        <div key={f.term} className="min-w-0">
          <dt className="whitespace-nowrap text-xs text-zinc-400">{f.term}</dt>
          <dd
            className={cn(
              'whitespace-nowrap text-zinc-200',
              f.share != null && f.share >= 0.95 ? 'text-red-300' : f.share != null && f.share >= 0.8 ? 'text-amber-300' : undefined,
            )}
          >
            {f.value}
            {f.of && ' '}
            {f.of && <span className="block text-xs text-zinc-400">{f.of}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
