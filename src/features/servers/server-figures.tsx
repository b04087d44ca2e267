import type { Server } from '../../contract/servers';
import type { ServerStats } from '../../contract/websocket';
import { cn } from '../../components/ui/cn';
import { formatBytes, formatCpuLimit, formatMemoryLimit, formatPercent } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { t as translate, useT } from './messages';

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
export function serverFigures(
  limits: Server['limits'],
  stats: ServerStats['attributes'] | null,
  { t = translate, locale }: { t?: typeof translate; locale?: string } = {},
): Figure[] {
  const live = stats && stats.current_state !== 'offline' ? stats.resources : null;
  if (!live) {
    return [
      { term: t('servers.figures.memoryLimit'), value: formatMemoryLimit(limits.memory, locale) },
      { term: t('servers.figures.diskLimit'), value: formatMemoryLimit(limits.disk, locale) },
      { term: t('servers.figures.cpuLimit'), value: formatCpuLimit(limits.cpu, locale) },
    ];
  }
  const of = (limit: number, text: string) => (limit > 0 ? t('servers.figures.of', { limit: text }) : t('servers.figures.noLimit'));
  const share = (used: number, limit: number) => (limit > 0 ? used / limit : null);
  return [
    {
      term: t('servers.memory'),
      value: formatBytes(live.memory_bytes, locale),
      of: of(limits.memory, formatMemoryLimit(limits.memory, locale)),
      share: share(live.memory_bytes, limits.memory * 1024 * 1024),
    },
    {
      term: t('servers.disk'),
      value: formatBytes(live.disk_bytes, locale),
      of: of(limits.disk, formatMemoryLimit(limits.disk, locale)),
      share: share(live.disk_bytes, limits.disk * 1024 * 1024),
    },
    {
      term: t('servers.cpu'),
      value: formatPercent(live.cpu_absolute, locale),
      of: of(limits.cpu, formatPercent(limits.cpu, locale)),
      share: share(live.cpu_absolute, limits.cpu),
    },
  ];
}

export function ServerFigures({ limits, stats }: { limits: Server['limits']; stats: ServerStats['attributes'] | null }) {
  const t = useT();
  const locale = useLocale();
  return (
    <dl className="grid w-full grid-cols-3 gap-x-4 text-sm sm:w-auto sm:grid-cols-[repeat(3,6rem)] sm:gap-x-4">
      {serverFigures(limits, stats, { t, locale }).map((f) => (
        <div key={f.term} className="min-w-0">
          {/* A long word (German) is cut in the card's fixed column, and read in full from its title. */}
          <dt className="truncate text-xs text-zinc-400" title={f.term}>
            {f.term}
          </dt>
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
