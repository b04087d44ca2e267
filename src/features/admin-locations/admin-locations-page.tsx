import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Location } from '../../contract/locations';
import { Button } from '../../components/ui/button';
import { ListPage, ListSearch } from '../../components/ui/list-page';
import { ListRow, RowActions, RowList } from '../../components/ui/row-list';
import { EmptyState } from '../../components/ui/states';
import { formatCount } from '../../lib/format';
import { useListSearch } from '../../lib/use-list-search';
import { usePageParam } from '../../lib/use-page-param';
import { adminLocationQueries } from './api';
import { DeleteLocationDialog, LocationFormDialog } from './location-dialogs';

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
  const query = useQuery(adminLocationQueries.list({ page, search: search.value }));
  const close = (o: boolean) => {
    if (!o) setOpen(null);
  };

  return (
    <ListPage
      headingId="admin-locations-heading"
      title="Locations"
      noun="location"
      action={<Button onClick={() => setOpen({ kind: 'create' })}>Create location</Button>}
      search={<ListSearch search={search} label="Search by short code" />}
      query={query}
      items={query.data?.data}
      empty={<EmptyState title="No locations yet">Create one to put nodes in.</EmptyState>}
      searched={search.value}
      paging={{ meta: query.data?.meta.pagination, onPage: setPage, label: 'Location list pages' }}
      dialogs={
        <>
          <LocationFormDialog location={null} open={open?.kind === 'create'} onOpenChange={(o) => setOpen(o ? { kind: 'create' } : null)} />
          {open?.kind === 'edit' && <LocationFormDialog location={open.location} open onOpenChange={close} />}
          {open?.kind === 'delete' && <DeleteLocationDialog location={open.location} open onOpenChange={close} />}
        </>
      }
    >
      {(locations) => (
        <RowList label="Locations" busy={query.isPlaceholderData}>
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
                    <bdi>{l.long ?? 'No description'}</bdi>
                    {nodes !== null && ` · ${formatCount(nodes, 'node')}`}
                  </p>
                }
              >
                <RowActions
                  of={l.short}
                  actions={[
                    { label: 'Edit', onClick: () => setOpen({ kind: 'edit', location: l }) },
                    { label: 'Delete', onClick: () => setOpen({ kind: 'delete', location: l }) },
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
