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
import { adminServerQueries } from './api';
import { DeleteServerDialog, ReinstallDialog, SuspendDialog } from './server-action-dialogs';
import { ServerBuildDialog } from './server-build-dialog';
import { ServerDetailsDialog } from './server-details-dialog';
import { allocationsOf, eggNameOf, nodeNameOf, ownerOf, statusLabel } from './server-relations';
import { ServerStartupDialog } from './server-startup-dialog';
import { TransferDialog } from './transfer-dialog';
import { TransferStatus } from './transfer-status';

type Open = 'details' | 'build' | 'startup' | 'suspend' | 'reinstall' | 'transfer' | 'delete' | 'force' | null;
const limit = (v: number | null) => (v === null ? 'No limit' : String(v));

/** One server as a root admin manages it: details, limits, startup, and the actions, each confirmed. */
export function AdminServerPage() {
  const { serverId = '' } = useParams();
  const navigate = useNavigate();
  const query = useQuery(adminServerQueries.detail(serverId));
  const transfer = useQuery(adminServerQueries.transfer(serverId));
  const [open, setOpen] = useState<Open>(null);
  const name = query.data?.name;
  useEffect(() => {
    if (name) document.title = `${name} · Servers · Admin · Aerie`;
  }, [name]);

  if (query.isPending) return <PageSpinner />;
  if (query.isError) return <ErrorState error={query.error} />;
  const server = query.data;
  const dialog = (which: Exclude<Open, null>) => ({ open: open === which, onOpenChange: (o: boolean) => setOpen(o ? which : null) });
  const status = statusLabel(server);
  const owner = ownerOf(server);
  const latest = typeof transfer.data === 'object' ? transfer.data : null;
  const moving = latest?.state === 'running';
  const { limits, feature_limits: features, container } = server;

  return (
    <div className="space-y-4">
      <Link to="/admin/servers" className="text-sm font-medium text-sky-400 hover:text-sky-300">
        ← All servers
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold break-all text-white">
          {server.name}
          {status && <Badge tone={status.tone}>{status.label}</Badge>}
        </h2>
        <Link to={serverPath(server.identifier)} className="text-sm font-medium text-sky-400 hover:text-sky-300">
          Open in the client area →
        </Link>
      </div>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Server actions">
        <Button variant="secondary" onClick={() => setOpen('suspend')}>
          {server.status === 'suspended' ? 'Unsuspend' : 'Suspend'}
        </Button>
        <Button variant="secondary" onClick={() => setOpen('reinstall')}>
          Reinstall
        </Button>
        {/* A panel without Aerie's transfer route (a Pterodactyl panel) offers no move. */}
        {transfer.isSuccess && transfer.data !== 'unsupported' && (
          <Button variant="secondary" disabled={moving} onClick={() => setOpen('transfer')}>
            Transfer
          </Button>
        )}
        <Button variant="danger" onClick={() => setOpen('delete')}>
          Delete
        </Button>
        <Button variant="danger" onClick={() => setOpen('force')}>
          Force delete
        </Button>
      </div>
      {latest && <TransferStatus transfer={latest} />}

      <Card
        title="Details"
        actions={
          <Button variant="secondary" size="sm" onClick={() => setOpen('details')}>
            Edit details
          </Button>
        }
      >
        <DetailList>
          <DetailItem term="Owner">
            <Link to={`/admin/users/${server.user}`} className="break-all text-sky-400 hover:text-sky-300">
              {owner.email ?? owner.username ?? `User #${server.user}`}
            </Link>
          </DetailItem>
          <DetailItem term="Node">{nodeNameOf(server) ?? `#${server.node}`}</DetailItem>
          <DetailItem term="External ID">{server.external_id ?? '—'}</DetailItem>
          <DetailItem term="Description">{server.description || '—'}</DetailItem>
          <DetailItem term="ID">
            {server.id} · <span className="break-all">{server.uuid}</span>
          </DetailItem>
        </DetailList>
      </Card>

      <Card
        title="Limits and ports"
        actions={
          <Button variant="secondary" size="sm" onClick={() => setOpen('build')}>
            Edit limits
          </Button>
        }
      >
        <DetailList>
          <DetailItem term="Memory">{formatMemoryLimit(limits.memory)}</DetailItem>
          <DetailItem term="Swap">{formatSwapLimit(limits.swap)}</DetailItem>
          <DetailItem term="Disk">{formatMemoryLimit(limits.disk)}</DetailItem>
          <DetailItem term="CPU">{formatCpuLimit(limits.cpu)}</DetailItem>
          <DetailItem term="Threads">{limits.threads || 'Any'}</DetailItem>
          <DetailItem term="Block I/O weight">{limits.io}</DetailItem>
          <DetailItem term="Out of memory">{limits.oom_disabled ? 'Keeps running' : 'Killed'}</DetailItem>
          <DetailItem term="Databases">{limit(features.databases)}</DetailItem>
          <DetailItem term="Allocations">{limit(features.allocations)}</DetailItem>
          <DetailItem term="Backups">{limit(features.backups)}</DetailItem>
          <DetailItem term="Ports">
            <span className="font-mono break-all">
              {allocationsOf(server)
                .map((a) => a.address)
                .join(', ') || '—'}
            </span>
          </DetailItem>
        </DetailList>
      </Card>

      <Card
        title="Startup"
        actions={
          <Button variant="secondary" size="sm" onClick={() => setOpen('startup')}>
            Edit startup
          </Button>
        }
      >
        <DetailList>
          <DetailItem term="Egg">{eggNameOf(server) ?? `#${server.egg}`}</DetailItem>
          <DetailItem term="Image">
            <code className="break-all">{container.image}</code>
          </DetailItem>
          <DetailItem term="Startup command">
            <code className="break-all">{container.startup_command}</code>
          </DetailItem>
          <DetailItem term="Install script">{container.skip_scripts ? 'Skipped' : 'Runs on install'}</DetailItem>
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
