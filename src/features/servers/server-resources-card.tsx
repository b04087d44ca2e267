import type { Server } from '../../contract/servers';
import { Card, DetailItem, DetailList } from '../../components/ui/card';
import { formatCpuLimit, formatMemoryLimit, formatNumber, formatSwapLimit } from '../../lib/format';

/** Limits (named so, not read as use) in units people read (memory, swap and disk in MiB; cpu in percent of a core). */
export function ServerResourcesCard({ server }: { server: Server }) {
  const { limits, feature_limits: features } = server;
  return (
    <Card title="Limits">
      <DetailList>
        <DetailItem term="Memory">{formatMemoryLimit(limits.memory)}</DetailItem>
        <DetailItem term="Swap">{formatSwapLimit(limits.swap)}</DetailItem>
        <DetailItem term="Disk">{formatMemoryLimit(limits.disk)}</DetailItem>
        <DetailItem term="CPU">
          {formatCpuLimit(limits.cpu)}
          {limits.cpu > 0 && <span className="text-zinc-400"> (100% = one core)</span>}
        </DetailItem>
        <DetailItem term="CPU threads">{limits.threads?.trim() ? <code className="font-mono">{limits.threads}</code> : 'Any'}</DetailItem>
        <DetailItem term="Block I/O weight">{formatNumber(limits.io)}</DetailItem>
        <DetailItem term="Out-of-memory killer">{limits.oom_disabled ? 'Disabled' : 'Enabled'}</DetailItem>
      </DetailList>
      <h3 className="mt-5 mb-2 text-sm font-medium text-zinc-300">Feature limits</h3>
      <DetailList>
        <DetailItem term="Databases">{featureLimit(features.databases)}</DetailItem>
        <DetailItem term="Allocations">{featureLimit(features.allocations)}</DetailItem>
        <DetailItem term="Backups">{featureLimit(features.backups)}</DetailItem>
      </DetailList>
    </Card>
  );
}

/** Feature caps: null means no limit is set; 0 means none may be created. */
export function featureLimit(value: number | null): string {
  if (value === null) return 'Unlimited';
  if (value === 0) return 'None allowed';
  return formatNumber(value);
}
