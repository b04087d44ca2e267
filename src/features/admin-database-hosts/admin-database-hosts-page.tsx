import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DatabaseHost } from '../../contract/admin-database-hosts';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { ListPage, ListSearch } from '../../components/ui/list-page';
import { ListRow, RowActions, RowList } from '../../components/ui/row-list';
import { CheckResult, EmptyState } from '../../components/ui/states';
import { formatNumber } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { useListSearch } from '../../lib/use-list-search';
import { adminDatabaseHostQueries, useDeleteDatabaseHost, useTestDatabaseHost } from './api';
import { HostFormDialog } from './host-form-dialog';
import { useT } from './messages';
import { usePageParam } from '../../lib/use-page-param';

/** Database hosts, searched by name (`?q=`, "/" focuses it) and paged (`?page=`): usage per host, add (tested first), test the stored account, edit, delete while empty. */
export function AdminDatabaseHostsPage() {
  const t = useT();
  const locale = useLocale();
  const usage = (h: DatabaseHost) =>
    h.max_databases === null
      ? t('adminDatabaseHosts.usage.unlimited', { count: h.databases })
      : t('adminDatabaseHosts.usage.limited', { used: formatNumber(h.databases, locale), max: h.max_databases });
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
      setTested({ id: host.id, ok: true, message: t('adminDatabaseHosts.test.ok', { name: host.name }) });
    } catch (error) {
      setTested({
        id: host.id,
        ok: false,
        message: t('adminDatabaseHosts.test.failed', { name: host.name, message: error instanceof Error ? error.message : String(error) }),
      });
    }
  }

  return (
    <ListPage
      headingId="admin-dbhosts-heading"
      title={t('adminDatabaseHosts.title')}
      noun="host"
      action={<Button onClick={() => setEditing('new')}>{t('adminDatabaseHosts.add')}</Button>}
      notice={tested && <CheckResult ok={tested.ok}>{tested.message}</CheckResult>}
      search={<ListSearch search={search} label={t('adminDatabaseHosts.search')} />}
      query={query}
      items={query.data?.data}
      empty={<EmptyState title={t('adminDatabaseHosts.empty.title')}>{t('adminDatabaseHosts.empty.body')}</EmptyState>}
      searched={search.value}
      paging={{ meta: query.data?.meta.pagination, onPage: setPage, label: t('adminDatabaseHosts.pages') }}
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
            title={t('adminDatabaseHosts.delete.title')}
            description={
              deleting
                ? deleting.databases > 0
                  ? t('adminDatabaseHosts.delete.holds', { name: deleting.name, count: deleting.databases })
                  : t('adminDatabaseHosts.delete.body', { name: deleting.name })
                : undefined
            }
            confirmLabel={t('adminDatabaseHosts.delete')}
            danger
            mutation={remove}
            onConfirm={(signal) => (deleting ? remove.mutateAsync({ host: deleting, signal }) : undefined)}
          />
        </>
      }
    >
      {(hosts) => (
        <RowList label={t('adminDatabaseHosts.title')} busy={query.isPlaceholderData}>
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
                    {h.node !== null && <Badge tone="info">{t('adminDatabaseHosts.node', { id: h.node })}</Badge>}
                  </div>
                </>
              }
            >
              <RowActions
                of={h.name}
                actions={[
                  {
                    label: t('adminDatabaseHosts.test'),
                    name: t('adminDatabaseHosts.testOf', { name: h.name }),
                    disabled: test.isPending,
                    onClick: () => void runTest(h),
                  },
                  { label: t('adminDatabaseHosts.edit'), onClick: () => setEditing(h) },
                  { label: t('adminDatabaseHosts.delete'), onClick: () => setDeleting(h) },
                ]}
              />
            </ListRow>
          ))}
        </RowList>
      )}
    </ListPage>
  );
}
