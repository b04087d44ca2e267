import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DatabaseHost } from '../../contract/admin-database-hosts';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { ListPage, ListSearch } from '../../components/ui/list-page';
import { ListRow, RowActions, RowList } from '../../components/ui/row-list';
import { CheckResult, EmptyState } from '../../components/ui/states';
import { formatCount } from '../../lib/format';
import { useListSearch } from '../../lib/use-list-search';
import { adminDatabaseHostQueries, useDeleteDatabaseHost, useTestDatabaseHost } from './api';
import { HostFormDialog } from './host-form-dialog';
import { usePageParam } from '../../lib/use-page-param';

const usage = (h: DatabaseHost) =>
  h.max_databases === null ? `${formatCount(h.databases, 'database')}, no limit` : `${h.databases} of ${formatCount(h.max_databases, 'database')}`;

/** Database hosts, searched by name (`?q=`, "/" focuses it) and paged (`?page=`): usage per host, add (tested first), test the stored account, edit, delete while empty. */
export function AdminDatabaseHostsPage() {
  const [page, setPage] = usePageParam();
  const search = useListSearch();
  const query = useQuery(adminDatabaseHostQueries.list({ page, search: search.value }));
  const [editing, setEditing] = useState<DatabaseHost | 'new' | null>(null);
  const [deleting, setDeleting] = useState<DatabaseHost | null>(null);
  const [tested, setTested] = useState<{ id: number; ok: boolean; message: string } | null>(null);
  const test = useTestDatabaseHost();
  const remove = useDeleteDatabaseHost();

  async function runTest(host: DatabaseHost) {
    setTested(null);
    try {
      await test.mutateAsync({ host });
      setTested({ id: host.id, ok: true, message: `${host.name}: connected, and the account may create databases and users.` });
    } catch (error) {
      setTested({ id: host.id, ok: false, message: `${host.name}: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  return (
    <ListPage
      headingId="admin-dbhosts-heading"
      title="Database hosts"
      noun="host"
      action={<Button onClick={() => setEditing('new')}>Add database host</Button>}
      notice={tested && <CheckResult ok={tested.ok}>{tested.message}</CheckResult>}
      search={<ListSearch search={search} label="Search by name" />}
      query={query}
      items={query.data?.data}
      empty={<EmptyState title="No database hosts yet">Add a MariaDB or MySQL server for servers’ databases.</EmptyState>}
      searched={search.value}
      paging={{ meta: query.data?.meta.pagination, onPage: setPage, label: 'Database host pages' }}
      dialogs={
        <>
          <HostFormDialog
            key={editing === null ? 'closed' : editing === 'new' ? 'new' : editing.id}
            host={editing === 'new' ? null : editing}
            open={editing !== null}
            onOpenChange={(o) => {
              if (!o) setEditing(null);
            }}
          />
          <ConfirmDialog
            open={deleting !== null}
            onOpenChange={(o) => {
              if (!o) setDeleting(null);
            }}
            title="Delete database host"
            description={
              deleting
                ? deleting.databases > 0
                  ? `${deleting.name} still holds ${formatCount(deleting.databases, 'database')}: the panel refuses to delete it until they are gone.`
                  : `${deleting.name} is removed from the panel. Nothing on the MariaDB server itself is touched.`
                : undefined
            }
            confirmLabel="Delete"
            danger
            mutation={remove}
            onConfirm={(signal) => (deleting ? remove.mutateAsync({ host: deleting, signal }) : undefined)}
          />
        </>
      }
    >
      {(hosts) => (
        <RowList label="Database hosts" busy={query.isPlaceholderData}>
          {hosts.map(({ attributes: h }) => (
            <ListRow
              key={h.id}
              title={h.name}
              details={
                <>
                  <p className="font-mono text-xs break-all text-zinc-400">
                    {h.username}@{h.host}:{h.port}
                  </p>
                  <div className="flex flex-wrap gap-2">
                    <Badge tone={h.max_databases !== null && h.databases >= h.max_databases ? 'warning' : 'neutral'}>{usage(h)}</Badge>
                    {h.node !== null && <Badge tone="info">Node {h.node}</Badge>}
                  </div>
                </>
              }
            >
              <RowActions
                of={h.name}
                actions={[
                  { label: 'Test connection', name: `Test connection to ${h.name}`, disabled: test.isPending, onClick: () => void runTest(h) },
                  { label: 'Edit', onClick: () => setEditing(h) },
                  { label: 'Delete', onClick: () => setDeleting(h) },
                ]}
              />
            </ListRow>
          ))}
        </RowList>
      )}
    </ListPage>
  );
}
