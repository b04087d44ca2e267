import type { ReactNode } from 'react';
import type { Server } from '../../contract/servers';
import type { SocketStats } from '../../contract/websocket';
import { CopyButton } from '../../components/ui/copy-button';
import { cn } from '../../components/ui/cn';
import { formatBytes } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { primaryAddress } from '../servers/api';
import { useT } from './messages';
import { Sparkline } from './sparkline';
import { formatCpu, formatUptime, formatUsage, usageLevel, usagePercent, type UsageLevel } from './stat-format';

const LEVEL_TEXT: Record<UsageLevel, string> = { normal: 'text-zinc-100', warning: 'text-amber-300', danger: 'text-red-400' };

/** Bytes per second between consecutive samples (one a second), for the network chart. */
function rates(history: readonly SocketStats[]): number[] {
  return history.slice(1).map((s, i) => {
    const prev = history[i];
    return prev ? Math.max(0, s.network.rx_bytes + s.network.tx_bytes - prev.network.rx_bytes - prev.network.tx_bytes) : 0;
  });
}

/** What the server uses against its limits, with charts of the last minute while it runs. */
export function StatTiles({
  server,
  stats,
  history,
  unknown = false,
}: {
  server: Server;
  stats: SocketStats | null;
  history: readonly SocketStats[];
  /** The connection is lost: no figure is known, and the server is not said to be offline. */
  unknown?: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  const { limits } = server;
  const address = primaryAddress(server);
  const cpuPct = stats && usagePercent(stats.cpu_absolute, limits.cpu);
  const memPct = stats && usagePercent(stats.memory_bytes, limits.memory * 1024 * 1024);
  const diskPct = stats && usagePercent(stats.disk_bytes, limits.disk * 1024 * 1024);
  const running = stats !== null && stats.state !== 'offline';
  return (
    <ul aria-label={t('console.stats.label')} className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-6">
      <Tile
        label={t('console.stats.address')}
        value={address ?? t('console.stats.noAddress')}
        action={address ? <CopyButton value={address} label={t('console.stats.copy')} /> : undefined}
        mono
      />
      <Tile
        label={t('console.stats.uptime')}
        value={running ? formatUptime(stats.uptime, t) : t(unknown ? 'console.status.unknown' : 'console.status.offline')}
      />
      <Tile
        label={t('console.stats.cpu')}
        value={running ? formatCpu(stats.cpu_absolute, limits.cpu, locale) : '—'}
        level={usageLevel(cpuPct ?? null)}
      >
        <Sparkline values={history.map((s) => s.cpu_absolute)} max={limits.cpu || undefined} label={t('console.stats.cpuChart')} />
      </Tile>
      <Tile
        label={t('console.stats.memory')}
        value={running ? formatUsage(stats.memory_bytes, limits.memory, locale) : '—'}
        level={usageLevel(memPct ?? null)}
      >
        <Sparkline
          values={history.map((s) => s.memory_bytes)}
          max={limits.memory * 1024 * 1024 || undefined}
          label={t('console.stats.memoryChart')}
        />
      </Tile>
      <Tile
        label={t('console.stats.disk')}
        value={stats ? formatUsage(stats.disk_bytes, limits.disk, locale) : '—'}
        level={usageLevel(diskPct ?? null)}
      />
      <Tile
        label={t('console.stats.network')}
        value={running ? `↓ ${formatBytes(stats.network.rx_bytes, locale)} ↑ ${formatBytes(stats.network.tx_bytes, locale)}` : '—'}
      >
        <Sparkline values={rates(history)} label={t('console.stats.networkChart')} />
      </Tile>
    </ul>
  );
}

function Tile({
  label,
  value,
  level = 'normal',
  action,
  mono,
  children,
}: {
  label: string;
  value: string;
  level?: UsageLevel;
  action?: ReactNode;
  mono?: boolean;
  children?: ReactNode;
}) {
  const t = useT();
  return (
    <li className="flex min-w-0 flex-col gap-1 rounded-lg bg-zinc-900/70 p-3 ring-1 ring-zinc-800">
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs text-zinc-400">{label}</span>
        {action}
      </div>
      <span className={cn('truncate text-sm font-medium', LEVEL_TEXT[level], mono && 'font-mono')} title={value}>
        {value}
        {level !== 'normal' && <span className="sr-only"> {t(level === 'danger' ? 'console.stats.atLimit' : 'console.stats.nearLimit')}</span>}
      </span>
      {children}
    </li>
  );
}
