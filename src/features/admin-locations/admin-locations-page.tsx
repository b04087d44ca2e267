import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Location } from '../../contract/locations';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { Pagination } from '../../components/ui/pagination';
import { QueryList } from '../../components/ui/query-list';
import { SearchInput } from '../../components/ui/search-input';
import { EmptyState } from '../../components/ui/states';
import { formatCount } from '../../lib/format';
import { useSearchParamInput } from '../../lib/use-search-param';
import { usePageParam } from '../../lib/use-page-param';
import { adminLocationQueries } from './api';
import { DeleteLocationDialog, LocationFormDialog } from './location-dialogs';

/** How many nodes the location holds, from `include=nodes` (null when the key may not read nodes). */
function nodeCount(location: Location): number | null {
  const nodes = location.relationships?.nodes;
  return nodes && 'data' in nodes ? nodes.data.length : null;
}

type Open = { kind: 'create' } | { kind: 'edit' | 'delete'; location: Location } | null;

/** The locations nodes are grouped in: searched by short code (`?q=`), paged (`?page=`); create, edit, delete. */
export function AdminLocationsPage() {
  const [page, setPage] = usePageParam();
  const search = useSearchParamInput('q', { reset: ['page'] });
  const [open, setOpen] = useState<Open>(null);
  const query = useQuery(adminLocationQueries.list({ page, search: search.value }));
  const meta = query.data?.meta.pagination;
  const close = (o: boolean) => {
    if (!o) setOpen(null);
  };

  return (
    <section aria-labelledby="admin-locations-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-baseline gap-x-3">
          <h2 id="admin-locations-heading" className="text-lg font-semibold text-white">
            Locations
          </h2>
          <p role="status" aria-live="polite" className="text-sm text-zinc-400">
            {meta && meta.total > 0 ? formatCount(meta.total, 'location') : ''}
          </p>
        </div>
        <Button onClick={() => setOpen({ kind: 'create' })}>Create location</Button>
      </div>

      <SearchInput
        label="Search by short code"
        placeholder="Search by short code…"
        value={search.draft}
        onValueChange={search.setDraft}
        onCommit={search.commit}
        className="sm:max-w-md"
      />

      <QueryList
        query={query}
        items={query.data?.data}
        empty={
          search.value ? (
            <EmptyState title={`No locations match “${search.value}”`} />
          ) : (
            <EmptyState title="No locations yet">Create one to put nodes in.</EmptyState>
          )
        }
      >
        {(locations) => (
          <>
            <ul
              aria-label="Locations"
              aria-busy={query.isPlaceholderData || undefined}
              className={cn('divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800', query.isPlaceholderData && 'opacity-60')}
            >
              {locations.map(({ attributes: l }) => {
                const nodes = nodeCount(l);
                return (
                  <li key={l.id} aria-label={l.short} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
                    <div className="min-w-0 flex-1 basis-48">
                      <p className="font-medium break-all text-zinc-100">{l.short}</p>
                      <p className="text-sm break-words text-zinc-400">
                        {l.long ?? 'No description'}
                        {nodes !== null && ` · ${formatCount(nodes, 'node')}`}
                      </p>
                    </div>
                    <div className="flex gap-2">
                      <Button variant="secondary" size="sm" aria-label={`Edit ${l.short}`} onClick={() => setOpen({ kind: 'edit', location: l })}>
                        Edit
                      </Button>
                      <Button variant="secondary" size="sm" aria-label={`Delete ${l.short}`} onClick={() => setOpen({ kind: 'delete', location: l })}>
                        Delete
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
            {meta && <Pagination meta={meta} onPage={setPage} label="Location list pages" />}
          </>
        )}
      </QueryList>

      <LocationFormDialog location={null} open={open?.kind === 'create'} onOpenChange={(o) => setOpen(o ? { kind: 'create' } : null)} />
      {open?.kind === 'edit' && <LocationFormDialog location={open.location} open onOpenChange={close} />}
      {open?.kind === 'delete' && <DeleteLocationDialog location={open.location} open onOpenChange={close} />}
    </section>
  );
}
