import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { Pagination } from '../../components/ui/pagination';
import { QueryList } from '../../components/ui/query-list';
import { SearchInput } from '../../components/ui/search-input';
import { EmptyState } from '../../components/ui/states';
import { formatCount } from '../../lib/format';
import { useSearchParamInput } from '../../lib/use-search-param';
import { usePageParam } from '../../lib/use-page-param';
import { useSlashFocus } from '../../lib/use-slash-focus';
import { adminUserQueries, type UserSearchField } from './api';
import { UserFormDialog } from './user-form-dialog';

/**
 * The panel's accounts: searched by e-mail or username (`?q=`, `?by=`), a page at a time (`?page=`),
 * all in the URL; each row links to the user's page. "/" jumps to the search box.
 */
export function AdminUsersPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [page, setPage] = usePageParam();
  const by: UserSearchField = params.get('by') === 'username' ? 'username' : 'email';
  const search = useSearchParamInput('q', { reset: ['page'] });
  const searchRef = useRef<HTMLInputElement>(null);
  useSlashFocus(searchRef);
  const [creating, setCreating] = useState(false);

  const query = useQuery(adminUserQueries.list({ page, search: search.value, by }));
  const meta = query.data?.meta.pagination;
  const set = (change: (p: URLSearchParams) => void) =>
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      change(p);
      return p;
    });

  return (
    <section aria-labelledby="admin-users-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-baseline gap-x-3">
          <h2 id="admin-users-heading" className="text-lg font-semibold text-white">
            Users
          </h2>
          <p role="status" aria-live="polite" className="text-sm text-zinc-400">
            {meta && meta.total > 0 ? formatCount(meta.total, 'user') : ''}
          </p>
        </div>
        <Button onClick={() => setCreating(true)}>Create user</Button>
      </div>

      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <SearchInput
          ref={searchRef}
          label={by === 'email' ? 'Search by e-mail' : 'Search by username'}
          placeholder={by === 'email' ? 'Search by e-mail…' : 'Search by username…'}
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
                if (e.target.value === 'username') p.set('by', 'username');
                else p.delete('by');
                p.delete('page');
              })
            }
            className="min-h-10 rounded-md bg-zinc-900 px-2 text-zinc-100 ring-1 ring-zinc-700 ring-inset focus:ring-2 focus:ring-sky-500 focus:outline-none"
          >
            <option value="email">E-mail</option>
            <option value="username">Username</option>
          </select>
        </label>
      </div>

      <QueryList
        query={query}
        items={query.data?.data}
        empty={
          search.value ? (
            <EmptyState title={`No users match “${search.value}”`} />
          ) : (
            <EmptyState title="No users yet">Create one, or let your billing system do it through the application API.</EmptyState>
          )
        }
      >
        {(users) => (
          <>
            <ul
              aria-label="Users"
              aria-busy={query.isPlaceholderData || undefined}
              className={cn('divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800', query.isPlaceholderData && 'opacity-60')}
            >
              {users.map(({ attributes: u }) => (
                <li key={u.uuid} className="relative flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 hover:bg-zinc-800/40">
                  <div className="min-w-0 flex-1 basis-48">
                    {/* The whole row is the link's target; only the name is announced. */}
                    <Link
                      to={`/admin/users/${u.id}`}
                      className="font-medium break-all text-zinc-100 after:absolute after:inset-0 focus-visible:outline-none focus-visible:after:rounded-lg focus-visible:after:ring-2 focus-visible:after:ring-sky-500"
                    >
                      {u.username}
                    </Link>
                    <p className="text-sm break-all text-zinc-400">{u.email}</p>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    {u.root_admin && <Badge tone="info">Root admin</Badge>}
                    <Badge tone={u['2fa'] ? 'success' : 'neutral'}>{u['2fa'] ? 'Two-factor on' : 'Two-factor off'}</Badge>
                  </div>
                </li>
              ))}
            </ul>
            {meta && <Pagination meta={meta} onPage={setPage} label="User list pages" />}
          </>
        )}
      </QueryList>

      <UserFormDialog
        user={null}
        open={creating}
        onOpenChange={setCreating}
        onCreated={(u, invited) => void navigate(`/admin/users/${u.id}`, { state: { created: invited ? 'invited' : 'created' } })}
      />
    </section>
  );
}
