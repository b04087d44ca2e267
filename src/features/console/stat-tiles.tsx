import type { ReactNode } from 'react';
import type { Server } from '../../contract/servers';
import type { SocketStats } from '../../contract/websocket';
import { CopyButton } from '../../components/ui/copy-button';
import { cn } from '../../components/ui/cn';
import { formatBytes } from '../../lib/format';
import { primaryAddress } from '../servers/api';
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
  const { limits } = server;
  const address = primaryAddress(server);
  const cpuPct = stats && usagePercent(stats.cpu_absolute, limits.cpu);
  const memPct = stats && usagePercent(stats.memory_bytes, limits.memory * 1024 * 1024);
  const diskPct = stats && usagePercent(stats.disk_bytes, limits.disk * 1024 * 1024);
  const running = stats !== null && stats.state !== 'offline';
  return (
    <ul aria-label="Resource usage" className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-6">
      <Tile label="Address" value={address ?? 'None'} action={address ? <CopyButton value={address} label="Copy" /> : undefined} mono />
      <Tile label="Uptime" value={running ? formatUptime(stats.uptime) : unknown ? 'Unknown' : 'Offline'} />
      <Tile label="CPU" value={running ? formatCpu(stats.cpu_absolute, limits.cpu) : '—'} level={usageLevel(cpuPct ?? null)}>
        <Sparkline values={history.map((s) => s.cpu_absolute)} max={limits.cpu || undefined} label="CPU over the last minute" />
      </Tile>
      <Tile label="Memory" value={running ? formatUsage(stats.memory_bytes, limits.memory) : '—'} level={usageLevel(memPct ?? null)}>
        <Sparkline values={history.map((s) => s.memory_bytes)} max={limits.memory * 1024 * 1024 || undefined} label="Memory over the last minute" />
      </Tile>
      <Tile label="Disk" value={stats ? formatUsage(stats.disk_bytes, limits.disk) : '—'} level={usageLevel(diskPct ?? null)} />
      <Tile label="Network" value={running ? `↓ ${formatBytes(stats.network.rx_bytes)} ↑ ${formatBytes(stats.network.tx_bytes)}` : '—'}>
        <Sparkline values={rates(history)} label="Network traffic over the last minute" />
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
  return (
    <li className="flex min-w-0 flex-col gap-1 rounded-lg bg-zinc-900/70 p-3 ring-1 ring-zinc-800">
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs text-zinc-400">{label}</span>
        {action}
      </div>
      <span className={cn('truncate text-sm font-medium', LEVEL_TEXT[level], mono && 'font-mono')} title={value}>
        {value}
        {level !== 'normal' && <span className="sr-only"> ({level === 'danger' ? 'at the limit' : 'near the limit'})</span>}
      </span>
      {children}
    </li>
  );
}
