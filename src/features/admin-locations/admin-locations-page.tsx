import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Location } from '../../contract/locations';
import { Button } from '../../components/ui/button';
import { ListPage, ListSearch } from '../../components/ui/list-page';
import { ListRow, RowActions, RowList } from '../../components/ui/row-list';
import { EmptyState } from '../../components/ui/states';
import { useListSearch } from '../../lib/use-list-search';
import { usePageParam } from '../../lib/use-page-param';
import { adminLocationQueries } from './api';
import { DeleteLocationDialog, LocationFormDialog } from './location-dialogs';
import { useT } from './messages';

/** How many nodes the location holds, from `include=nodes` (null when the key may not read nodes). */
function nodeCount(location: Location): number | null {
  const nodes = location.relationships?.nodes;
  return nodes && 'data' in nodes ? nodes.data.length : null;
}

type Open = { kind: 'create' } | { kind: 'edit' | 'delete'; location: Location } | null;

/** The locations nodes are grouped in: searched by short code (`?q=`, "/" focuses it), paged (`?page=`); create, edit, delete. */
export function AdminLocationsPage() {
  const [page, setPage] = usePageParam();
  const search = useListSearch();
  const [open, setOpen] = useState<Open>(null);
  const t = useT();
  const query = useQuery(adminLocationQueries.list({ page, search: search.value }));
  const close = (o: boolean) => {
    if (!o) setOpen(null);
  };

  return (
    <ListPage
      headingId="admin-locations-heading"
      title={t('adminLocations.title')}
      noun="location"
      action={<Button onClick={() => setOpen({ kind: 'create' })}>{t('adminLocations.create')}</Button>}
      search={<ListSearch search={search} label={t('adminLocations.search')} />}
      query={query}
      items={query.data?.data}
      empty={<EmptyState title={t('adminLocations.empty')}>{t('adminLocations.emptyText')}</EmptyState>}
      searched={search.value}
      paging={{ meta: query.data?.meta.pagination, onPage: setPage, label: t('adminLocations.pages') }}
      dialogs={
        <>
          <LocationFormDialog location={null} open={open?.kind === 'create'} onOpenChange={(o) => setOpen(o ? { kind: 'create' } : null)} />
          {open?.kind === 'edit' && <LocationFormDialog location={open.location} open onOpenChange={close} />}
          {open?.kind === 'delete' && <DeleteLocationDialog location={open.location} open onOpenChange={close} />}
        </>
      }
    >
      {(locations) => (
        <RowList label={t('adminLocations.title')} busy={query.isPlaceholderData}>
          {locations.map(({ attributes: l }) => {
            const nodes = nodeCount(l);
            return (
              <ListRow
                key={l.id}
                label={l.short}
                title={l.short}
                details={
                  <p className="text-sm break-words text-zinc-400">
                    {/* Isolated: a right-to-left override in it must not reorder the node count after it. */}
                    <bdi>{l.long ?? t('adminLocations.noDescription')}</bdi>
                    {nodes !== null && ` · ${t('adminLocations.nodeCount', { count: nodes })}`}
                  </p>
                }
              >
                <RowActions
                  of={l.short}
                  actions={[
                    { label: t('adminLocations.editAction'), onClick: () => setOpen({ kind: 'edit', location: l }) },
                    { label: t('adminLocations.delete'), onClick: () => setOpen({ kind: 'delete', location: l }) },
                  ]}
                />
              </ListRow>
            );
          })}
        </RowList>
      )}
    </ListPage>
  );
}
