import type { Server } from '../../contract/servers';
import { Card, DetailItem, DetailList } from '../../components/ui/card';
import { formatCpuLimit, formatMemoryLimit, formatNumber, formatSwapLimit } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { t as translate, useT } from './messages';

/** Limits (named so, not read as use) in units people read (memory, swap and disk in MiB; cpu in percent of a core). */
export function ServerResourcesCard({ server }: { server: Server }) {
  const t = useT();
  const locale = useLocale();
  const { limits, feature_limits: features } = server;
  const feature = (value: number | null) => featureLimit(value, { t, locale });
  return (
    <Card title={t('servers.limits.title')}>
      <DetailList>
        <DetailItem term={t('servers.memory')}>{formatMemoryLimit(limits.memory, locale)}</DetailItem>
        <DetailItem term={t('servers.limits.swap')}>{formatSwapLimit(limits.swap, locale)}</DetailItem>
        <DetailItem term={t('servers.disk')}>{formatMemoryLimit(limits.disk, locale)}</DetailItem>
        <DetailItem term={t('servers.cpu')}>
          {formatCpuLimit(limits.cpu, locale)}
          {limits.cpu > 0 && <span className="text-zinc-400"> {t('servers.limits.oneCore')}</span>}
        </DetailItem>
        <DetailItem term={t('servers.limits.threads')}>
          {limits.threads?.trim() ? <code className="font-mono">{limits.threads}</code> : t('servers.limits.anyThread')}
        </DetailItem>
        <DetailItem term={t('servers.limits.io')}>{formatNumber(limits.io, locale)}</DetailItem>
        <DetailItem term={t('servers.limits.oom')}>{t(limits.oom_disabled ? 'servers.limits.disabled' : 'servers.limits.enabled')}</DetailItem>
      </DetailList>
      <h3 className="mt-5 mb-2 text-sm font-medium text-zinc-300">{t('servers.limits.features')}</h3>
      <DetailList>
        <DetailItem term={t('servers.limits.databases')}>{feature(features.databases)}</DetailItem>
        <DetailItem term={t('servers.limits.allocations')}>{feature(features.allocations)}</DetailItem>
        <DetailItem term={t('servers.limits.backups')}>{feature(features.backups)}</DetailItem>
      </DetailList>
    </Card>
  );
}

/** Feature caps: null means no limit is set; 0 means none may be created. */
export function featureLimit(value: number | null, { t = translate, locale }: { t?: typeof translate; locale?: string } = {}): string {
  if (value === null) return t('servers.limits.unlimited');
  if (value === 0) return t('servers.limits.noneAllowed');
  return formatNumber(value, locale);
}
