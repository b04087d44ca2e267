import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { OverviewNode } from '../../contract/admin-overview';
import type { Node } from '../../contract/nodes';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ListPage, ListSearch } from '../../components/ui/list-page';
import { EmptyState } from '../../components/ui/states';
import { useListSearch } from '../../lib/use-list-search';
import { usePageParam } from '../../lib/use-page-param';
import { adminOverviewQueries, NodeHealthList, type HealthNode } from '../admin-overview/api';
import { adminNodeQueries } from './api';
import { useT } from './messages';
import { NodeFormDialog } from './node-form-dialog';

/**
 * A node of the list with its health: the application API says what it offers and what its servers
 * take; Aerie's overview adds whether it answers, its version and its server count. Without the
 * overview (a Pterodactyl panel) the health reads "not checked".
 */
function withHealth(node: Node, health: OverviewNode | undefined): HealthNode {
  return {
    id: node.id,
    uuid: node.uuid,
    name: node.name,
    local: health?.local ?? false,
    reachable: health?.reachable ?? null,
    version: health?.version ?? null,
    reason: health?.reason ?? null,
    last_seen: health?.last_seen ?? null,
    servers: health?.servers ?? null,
    memory: { allocated: node.allocated_resources.memory, total: node.memory },
    disk: { allocated: node.allocated_resources.disk, total: node.disk },
  };
}

/** The panel's nodes with their live health, searched by name (`?q=`, "/" focuses it), paged (`?page=`); each links to its page. */
export function AdminNodesPage() {
  const t = useT();
  const navigate = useNavigate();
  const [page, setPage] = usePageParam();
  const search = useListSearch();
  const [creating, setCreating] = useState(false);
  const query = useQuery(adminNodeQueries.list({ page, search: search.value }));
  const overview = useQuery(adminOverviewQueries.overview());
  const items = useMemo(() => {
    const health = new Map((overview.data?.nodes ?? []).map((n) => [n.id, n]));
    return query.data?.data.map(({ attributes: node }) => withHealth(node, health.get(node.id)));
  }, [query.data, overview.data]);

  return (
    <ListPage
      headingId="admin-nodes-heading"
      title={t('adminNodes.title')}
      noun="node"
      action={<Button onClick={() => setCreating(true)}>{t('adminNodes.create')}</Button>}
      search={<ListSearch search={search} label={t('adminNodes.searchByName')} />}
      query={query}
      items={items}
      empty={<EmptyState title={t('adminNodes.empty.title')}>{t('adminNodes.empty.body')}</EmptyState>}
      searched={search.value}
      paging={{ meta: query.data?.meta.pagination, onPage: setPage, label: t('adminNodes.pages') }}
      dialogs={
        <NodeFormDialog
          node={null}
          open={creating}
          onOpenChange={setCreating}
          onCreated={(node) => void navigate(`/admin/nodes/${String(node.id)}`, { state: { created: true } })}
        />
      }
    >
      {(nodes) => (
        <Card title={t('adminNodes.health')} className={query.isPlaceholderData ? 'opacity-60' : undefined}>
          <NodeHealthList nodes={nodes} now={new Date(overview.dataUpdatedAt || Date.now())} href={(n) => `/admin/nodes/${String(n.id)}`} />
        </Card>
      )}
    </ListPage>
  );
}
