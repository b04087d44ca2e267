import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { Node } from '../../contract/nodes';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, DetailItem, DetailList } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { PageSpinner } from '../../components/ui/spinner';
import { ErrorState } from '../../components/ui/states';
import { formatAllocated, formatDateTime, formatNumber, formatPercent } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { adminNodeQueries, useDeleteNode } from './api';
import { T, useT } from './messages';
import { NodeAllocations } from './node-allocations';
import { NodeConfigCard } from './node-config-card';
import { NodeFormDialog } from './node-form-dialog';

type Open = 'edit' | 'delete' | null;

const justCreated = (state: unknown) => typeof state === 'object' && state !== null && 'created' in state && state.created === true;

/** One node: its settings, its config.yml and start command, its allocations; edit and delete. */
export function AdminNodePage() {
  const { nodeId = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const t = useT();
  const query = useQuery(adminNodeQueries.detail(nodeId));
  const [open, setOpen] = useState<Open>(null);
  const name = query.data?.name;
  useEffect(() => {
    if (name) document.title = t('adminNodes.pageTitle', { name });
  }, [name, t]);

  if (query.isPending) return <PageSpinner />;
  if (query.isError) return <ErrorState error={query.error} />;
  const node = query.data;
  const dialog = (which: Exclude<Open, null>) => ({ open: open === which, onOpenChange: (o: boolean) => setOpen(o ? which : null) });

  return (
    <div className="space-y-4">
      <Link to="/admin/nodes" className="text-sm font-medium text-sky-400 hover:text-sky-300">
        {t('adminNodes.allNodes')}
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold break-all text-white">
          {node.name}
          {node.maintenance_mode && <Badge tone="warning">{t('adminNodes.maintenance')}</Badge>}
          {!node.public && <Badge>{t('adminNodes.notPublic')}</Badge>}
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setOpen('edit')}>
            {t('adminNodes.edit')}
          </Button>
          <Button variant="danger" onClick={() => setOpen('delete')}>
            {t('adminNodes.delete')}
          </Button>
        </div>
      </div>

      {justCreated(location.state) && (
        <p role="status" className="rounded-lg bg-zinc-900/60 p-3 text-sm text-zinc-200 ring-1 ring-zinc-800">
          {t('adminNodes.created')}
        </p>
      )}

      <div className="grid gap-4 lg:grid-cols-2">
        <NodeDetails node={node} />
        <NodeAllocations node={node} />
      </div>
      <NodeConfigCard nodeId={nodeId} />

      <NodeFormDialog node={node} {...dialog('edit')} />
      <DeleteNodeDialog node={node} {...dialog('delete')} onDeleted={() => void navigate('/admin/nodes', { replace: true })} />
    </div>
  );
}

function NodeDetails({ node }: { node: Node }) {
  const t = useT();
  const locale = useLocale();
  const overallocate = (percent: number) =>
    percent === -1
      ? t('adminNodes.overallocate.unchecked')
      : percent === 0
        ? t('adminNodes.overallocate.none')
        : t('adminNodes.overallocate.percent', { percent: formatPercent(percent, locale) });
  return (
    <Card title={t('adminNodes.node')}>
      <DetailList>
        <DetailItem term={t('adminNodes.address')}>
          <span className="break-all">{`${node.scheme}://${node.fqdn}:${String(node.daemon_listen)}`}</span>
          {node.behind_proxy && <span className="text-zinc-400"> · {t('adminNodes.behindProxy')}</span>}
        </DetailItem>
        <DetailItem term={t('adminNodes.sftpPort')}>{node.daemon_sftp}</DetailItem>
        <DetailItem term={t('adminNodes.memory')}>
          {formatAllocated(node.allocated_resources.memory, node.memory, locale)}
          {node.memory > 0 && ` · ${overallocate(node.memory_overallocate)}`}
        </DetailItem>
        <DetailItem term={t('adminNodes.disk')}>
          {formatAllocated(node.allocated_resources.disk, node.disk, locale)}
          {node.disk > 0 && ` · ${overallocate(node.disk_overallocate)}`}
        </DetailItem>
        <DetailItem term={t('adminNodes.uploadSize')}>{t('adminNodes.uploadSizeValue', { size: formatNumber(node.upload_size, locale) })}</DetailItem>
        <DetailItem term={t('adminNodes.dataDirectory')}>
          <span className="break-all">{node.daemon_base}</span>
        </DetailItem>
        <DetailItem term={t('adminNodes.id')}>
          {node.id} · <span className="break-all">{node.uuid}</span>
        </DetailItem>
        <DetailItem term={t('adminNodes.createdAt')}>{formatDateTime(node.created_at, locale)}</DetailItem>
      </DetailList>
    </Card>
  );
}

/** Deleting is refused while servers are on the node (and for the panel's own node): the refusal shows in the dialog. */
function DeleteNodeDialog({
  node,
  open,
  onOpenChange,
  onDeleted,
}: {
  node: Node;
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onDeleted: () => void;
}) {
  const t = useT();
  const remove = useDeleteNode();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminNodes.delete.title')}
      description={<T k="adminNodes.delete.body" values={{ name: node.name }} components={{ 0: <span className="break-all" /> }} />}
      confirmLabel={t('adminNodes.delete')}
      danger
      mutation={remove}
      onConfirm={async (signal) => {
        await remove.mutateAsync({ node, signal });
        onDeleted();
      }}
    />
  );
}
