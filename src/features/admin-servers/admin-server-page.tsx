import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { serverPath } from '../../app/paths';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, DetailItem, DetailList } from '../../components/ui/card';
import { PageSpinner } from '../../components/ui/spinner';
import { ErrorState } from '../../components/ui/states';
import { formatCpuLimit, formatMemoryLimit, formatSwapLimit } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { adminServerQueries } from './api';
import { useT } from './messages';
import { DeleteServerDialog, ReinstallDialog, SuspendDialog } from './server-action-dialogs';
import { ServerBuildDialog } from './server-build-dialog';
import { ServerDetailsDialog } from './server-details-dialog';
import { allocationsOf, eggNameOf, nodeNameOf, ownerOf, statusLabel } from './server-relations';
import { ServerStartupDialog } from './server-startup-dialog';
import { TransferDialog } from './transfer-dialog';
import { TransferStatus } from './transfer-status';

type Open = 'details' | 'build' | 'startup' | 'suspend' | 'reinstall' | 'transfer' | 'delete' | 'force' | null;

/** One server as a root admin manages it: details, limits, startup, and the actions, each confirmed. */
export function AdminServerPage() {
  const { serverId = '' } = useParams();
  const navigate = useNavigate();
  const t = useT();
  const locale = useLocale();
  const query = useQuery(adminServerQueries.detail(serverId));
  const transfer = useQuery(adminServerQueries.transfer(serverId));
  const [open, setOpen] = useState<Open>(null);
  const name = query.data?.name;
  useEffect(() => {
    if (name) document.title = t('adminServers.pageTitle', { name });
  }, [name, t]);

  if (query.isPending) return <PageSpinner />;
  if (query.isError) return <ErrorState error={query.error} />;
  const server = query.data;
  const dialog = (which: Exclude<Open, null>) => ({ open: open === which, onOpenChange: (o: boolean) => setOpen(o ? which : null) });
  const status = statusLabel(server);
  const owner = ownerOf(server);
  const latest = typeof transfer.data === 'object' ? transfer.data : null;
  const moving = latest?.state === 'running';
  const { limits, feature_limits: features, container } = server;
  const limit = (v: number | null) => (v === null ? t('adminServers.limits.none') : String(v));

  return (
    <div className="space-y-4">
      <Link to="/admin/servers" className="text-sm font-medium text-sky-400 hover:text-sky-300">
        {t('adminServers.allServers')}
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold break-all text-white">
          {server.name}
          {status && <Badge tone={status.tone}>{status.label}</Badge>}
        </h2>
        <Link to={serverPath(server.identifier)} className="text-sm font-medium text-sky-400 hover:text-sky-300">
          {t('adminServers.openClient')}
        </Link>
      </div>
      <div className="flex flex-wrap gap-2" role="group" aria-label={t('adminServers.actions')}>
        <Button variant="secondary" onClick={() => setOpen('suspend')}>
          {server.status === 'suspended' ? t('adminServers.unsuspend') : t('adminServers.suspend')}
        </Button>
        <Button variant="secondary" onClick={() => setOpen('reinstall')}>
          {t('adminServers.reinstall')}
        </Button>
        {/* A panel without Aerie's transfer route (a Pterodactyl panel) offers no move. */}
        {transfer.isSuccess && transfer.data !== 'unsupported' && (
          <Button variant="secondary" disabled={moving} onClick={() => setOpen('transfer')}>
            {t('adminServers.transfer')}
          </Button>
        )}
        <Button variant="danger" onClick={() => setOpen('delete')}>
          {t('adminServers.delete')}
        </Button>
        <Button variant="danger" onClick={() => setOpen('force')}>
          {t('adminServers.forceDelete')}
        </Button>
      </div>
      {latest && <TransferStatus transfer={latest} />}

      <Card
        title={t('adminServers.details')}
        actions={
          <Button variant="secondary" size="sm" onClick={() => setOpen('details')}>
            {t('adminServers.details.edit')}
          </Button>
        }
      >
        <DetailList>
          <DetailItem term={t('adminServers.details.owner')}>
            <Link to={`/admin/users/${server.user}`} className="break-all text-sky-400 hover:text-sky-300">
              {owner.email ?? owner.username ?? t('adminServers.user', { id: server.user })}
            </Link>
          </DetailItem>
          <DetailItem term={t('adminServers.node')}>{nodeNameOf(server) ?? `#${server.node}`}</DetailItem>
          <DetailItem term={t('adminServers.field.externalId')}>{server.external_id ?? '—'}</DetailItem>
          <DetailItem term={t('adminServers.field.description')}>{server.description || '—'}</DetailItem>
          <DetailItem term={t('adminServers.details.id')}>
            {server.id} · <span className="break-all">{server.uuid}</span>
          </DetailItem>
        </DetailList>
      </Card>

      <Card
        title={t('adminServers.limits.title')}
        actions={
          <Button variant="secondary" size="sm" onClick={() => setOpen('build')}>
            {t('adminServers.limits.edit')}
          </Button>
        }
      >
        <DetailList>
          <DetailItem term={t('adminServers.limits.memory')}>{formatMemoryLimit(limits.memory, locale)}</DetailItem>
          <DetailItem term={t('adminServers.limits.swap')}>{formatSwapLimit(limits.swap, locale)}</DetailItem>
          <DetailItem term={t('adminServers.limits.disk')}>{formatMemoryLimit(limits.disk, locale)}</DetailItem>
          <DetailItem term={t('adminServers.limits.cpu')}>{formatCpuLimit(limits.cpu, locale)}</DetailItem>
          <DetailItem term={t('adminServers.limits.threads')}>{limits.threads || t('adminServers.limits.anyThread')}</DetailItem>
          <DetailItem term={t('adminServers.limits.io')}>{limits.io}</DetailItem>
          <DetailItem term={t('adminServers.limits.oom')}>
            {limits.oom_disabled ? t('adminServers.limits.oomKeeps') : t('adminServers.limits.oomKilled')}
          </DetailItem>
          <DetailItem term={t('adminServers.limits.databases')}>{limit(features.databases)}</DetailItem>
          <DetailItem term={t('adminServers.limits.allocations')}>{limit(features.allocations)}</DetailItem>
          <DetailItem term={t('adminServers.limits.backups')}>{limit(features.backups)}</DetailItem>
          <DetailItem term={t('adminServers.limits.ports')}>
            <span className="font-mono break-all">
              {allocationsOf(server)
                .map((a) => a.address)
                .join(', ') || '—'}
            </span>
          </DetailItem>
        </DetailList>
      </Card>

      <Card
        title={t('adminServers.startup.title')}
        actions={
          <Button variant="secondary" size="sm" onClick={() => setOpen('startup')}>
            {t('adminServers.startup.edit')}
          </Button>
        }
      >
        <DetailList>
          <DetailItem term={t('adminServers.egg')}>{eggNameOf(server) ?? `#${server.egg}`}</DetailItem>
          <DetailItem term={t('adminServers.field.image')}>
            <code className="break-all">{container.image}</code>
          </DetailItem>
          <DetailItem term={t('adminServers.startup.command')}>
            <code className="break-all">{container.startup_command}</code>
          </DetailItem>
          <DetailItem term={t('adminServers.startup.installScript')}>
            {container.skip_scripts ? t('adminServers.startup.skipped') : t('adminServers.startup.runs')}
          </DetailItem>
        </DetailList>
      </Card>

      <ServerDetailsDialog server={server} {...dialog('details')} />
      <ServerBuildDialog server={server} {...dialog('build')} />
      <ServerStartupDialog server={server} {...dialog('startup')} />
      <SuspendDialog server={server} {...dialog('suspend')} />
      <ReinstallDialog server={server} {...dialog('reinstall')} />
      <TransferDialog server={server} {...dialog('transfer')} />
      <DeleteServerDialog server={server} force={false} {...dialog('delete')} onDeleted={() => void navigate('/admin/servers', { replace: true })} />
      <DeleteServerDialog server={server} force {...dialog('force')} onDeleted={() => void navigate('/admin/servers', { replace: true })} />
    </div>
  );
}
