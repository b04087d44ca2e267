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
import { formatAllocated, formatDateTime } from '../../lib/format';
import { adminNodeQueries, useDeleteNode } from './api';
import { NodeAllocations } from './node-allocations';
import { NodeConfigCard } from './node-config-card';
import { NodeFormDialog } from './node-form-dialog';

type Open = 'edit' | 'delete' | null;

const justCreated = (state: unknown) => typeof state === 'object' && state !== null && 'created' in state && state.created === true;
const overallocate = (percent: number) =>
  percent === -1 ? 'over-allocation unchecked' : percent === 0 ? 'no over-allocation' : `${String(percent)}% over-allocation`;

/** One node: its settings, its config.yml and start command, its allocations; edit and delete. */
export function AdminNodePage() {
  const { nodeId = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const query = useQuery(adminNodeQueries.detail(nodeId));
  const [open, setOpen] = useState<Open>(null);
  const name = query.data?.name;
  useEffect(() => {
    if (name) document.title = `${name} · Nodes · Admin · Aerie`;
  }, [name]);

  if (query.isPending) return <PageSpinner />;
  if (query.isError) return <ErrorState error={query.error} />;
  const node = query.data;
  const dialog = (which: Exclude<Open, null>) => ({ open: open === which, onOpenChange: (o: boolean) => setOpen(o ? which : null) });

  return (
    <div className="space-y-4">
      <Link to="/admin/nodes" className="text-sm font-medium text-sky-400 hover:text-sky-300">
        ← All nodes
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold break-all text-white">
          {node.name}
          {node.maintenance_mode && <Badge tone="warning">Maintenance</Badge>}
          {!node.public && <Badge>Not public</Badge>}
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setOpen('edit')}>
            Edit
          </Button>
          <Button variant="danger" onClick={() => setOpen('delete')}>
            Delete
          </Button>
        </div>
      </div>

      {justCreated(location.state) && (
        <p role="status" className="rounded-lg bg-zinc-900/60 p-3 text-sm text-zinc-200 ring-1 ring-zinc-800">
          The node was created. Put its config.yml on the machine and start the node there; then add the ports its servers may use.
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
  return (
    <Card title="Node">
      <DetailList>
        <DetailItem term="Address">
          <span className="break-all">{`${node.scheme}://${node.fqdn}:${String(node.daemon_listen)}`}</span>
          {node.behind_proxy && <span className="text-zinc-400"> · behind a proxy</span>}
        </DetailItem>
        <DetailItem term="SFTP port">{node.daemon_sftp}</DetailItem>
        <DetailItem term="Memory">
          {formatAllocated(node.allocated_resources.memory, node.memory)}
          {node.memory > 0 && ` · ${overallocate(node.memory_overallocate)}`}
        </DetailItem>
        <DetailItem term="Disk">
          {formatAllocated(node.allocated_resources.disk, node.disk)}
          {node.disk > 0 && ` · ${overallocate(node.disk_overallocate)}`}
        </DetailItem>
        <DetailItem term="Upload size">{node.upload_size} MiB</DetailItem>
        <DetailItem term="Data directory">
          <span className="break-all">{node.daemon_base}</span>
        </DetailItem>
        <DetailItem term="ID">
          {node.id} · <span className="break-all">{node.uuid}</span>
        </DetailItem>
        <DetailItem term="Created">{formatDateTime(node.created_at)}</DetailItem>
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
  const remove = useDeleteNode();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete node"
      description={
        <>
          The node <span className="break-all">{node.name}</span> and its allocations are removed from the panel. A node with servers on it cannot be
          deleted: move or delete them first.
        </>
      }
      confirmLabel="Delete"
      danger
      mutation={remove}
      onConfirm={async (signal) => {
        await remove.mutateAsync({ node, signal });
        onDeleted();
      }}
    />
  );
}
