import { useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { cn } from '../../components/ui/cn';
import { Pagination } from '../../components/ui/pagination';
import { QueryList } from '../../components/ui/query-list';
import { SearchInput } from '../../components/ui/search-input';
import { EmptyState } from '../../components/ui/states';
import { formatCount } from '../../lib/format';
import { useSearchParamInput } from '../../lib/use-search-param';
import { usePageParam } from '../../lib/use-page-param';
import { useSlashFocus } from '../../lib/use-slash-focus';
import { adminServerQueries, SERVER_SEARCH_FIELDS, type ServerSearchField } from './api';
import { ServerRows } from './server-rows';

const isField = (v: string | null): v is ServerSearchField => v !== null && v in SERVER_SEARCH_FIELDS;

/** Every server on every node: searched by one column at a time (`/` focuses the search), paged, each a link to its page. */
export function AdminServersPage() {
  const [params, setParams] = useSearchParams();
  const [page, setPage] = usePageParam();
  const byParam = params.get('by');
  const by: ServerSearchField = isField(byParam) ? byParam : 'name';
  const search = useSearchParamInput('q', { reset: ['page'] });
  const searchRef = useRef<HTMLInputElement>(null);
  useSlashFocus(searchRef);

  const query = useQuery(adminServerQueries.list({ page, search: search.value, by }));
  const meta = query.data?.meta.pagination;
  const set = (change: (p: URLSearchParams) => void) =>
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      change(p);
      return p;
    });
  const fieldName = SERVER_SEARCH_FIELDS[by].toLowerCase().replace('uuid', 'UUID').replace('external id', 'external ID');

  return (
    <section aria-labelledby="admin-servers-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-baseline gap-x-3">
          <h2 id="admin-servers-heading" className="text-lg font-semibold text-white">
            Servers
          </h2>
          <p role="status" aria-live="polite" className="text-sm text-zinc-400">
            {meta && meta.total > 0 ? formatCount(meta.total, 'server') : ''}
          </p>
        </div>
        <Link
          to="/admin/servers/new"
          className="inline-flex min-h-10 items-center rounded-md bg-sky-600 px-4 text-sm font-medium text-white hover:bg-sky-500 focus-visible:ring-2 focus-visible:ring-sky-400 focus-visible:outline-none"
        >
          Create server
        </Link>
      </div>

      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <SearchInput
          ref={searchRef}
          label={`Search by ${fieldName}`}
          placeholder={`Search by ${fieldName}…`}
          value={search.draft}
          onValueChange={search.setDraft}
          onCommit={search.commit}
          aria-keyshortcuts="/"
          className="sm:max-w-md sm:flex-1"
        />
        <label className="flex items-center gap-2 text-sm text-zinc-300">
          <span>Search in</span>
          <select
            value={by}
            onChange={(e) =>
              set((p) => {
                if (e.target.value === 'name') p.delete('by');
                else p.set('by', e.target.value);
                p.delete('page');
              })
            }
            className="min-h-10 rounded-md bg-zinc-900 px-2 text-zinc-100 ring-1 ring-zinc-700 ring-inset focus:ring-2 focus:ring-sky-500 focus:outline-none"
          >
            {Object.entries(SERVER_SEARCH_FIELDS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>

      <QueryList
        query={query}
        items={query.data?.data}
        empty={
          search.value ? (
            <EmptyState title={`No servers match “${search.value}”`} />
          ) : (
            <EmptyState title="No servers yet">Create one, or let your billing system do it through the application API.</EmptyState>
          )
        }
      >
        {(servers) => (
          <>
            <ServerRows
              servers={servers.map((s) => s.attributes)}
              label="Servers"
              busy={query.isPlaceholderData}
              className={cn(query.isPlaceholderData && 'opacity-60')}
            />
            {meta && <Pagination meta={meta} onPage={setPage} label="Server list pages" />}
          </>
        )}
      </QueryList>
    </section>
  );
}
