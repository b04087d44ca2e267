import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useAccount } from '../../app/require-auth';
import { Button } from '../../components/ui/button';
import { Pagination } from '../../components/ui/pagination';
import { SearchInput } from '../../components/ui/search-input';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { Switch } from '../../components/ui/switch';
import { cn } from '../../components/ui/cn';
import { useSearchParamInput } from '../../lib/use-search-param';
import { usePageParam } from '../../lib/use-page-param';
import { useSlashFocus } from '../../lib/use-slash-focus';
import { serverQueries } from './api';
import { ServerRow } from './server-row';
import { ServerListSkeleton } from './server-list-skeleton';
import { pageTitle } from '../../lib/panel-name';
import { useT } from './messages';

/**
 * The dashboard: the servers the user can reach. All of its state lives in the URL (`?q=`,
 * `?page=`, `?all=1`), so a reload, a shared link and the Back button show the same list.
 */
export function ServerListPage() {
  const t = useT();
  const account = useAccount();
  const [params, setParams] = useSearchParams();
  const [page, setPage] = usePageParam();
  const all = account.admin && params.get('all') === '1';
  const searchRef = useRef<HTMLInputElement>(null);

  // The box shows what is typed; the URL (and the query) follow it after a pause, from page 1.
  const search = useSearchParamInput('q', { reset: ['page'] });
  useEffect(() => {
    document.title = pageTitle(t('servers.list.title'));
  }, [t]);

  useSlashFocus(searchRef);

  const list = useQuery(serverQueries.list({ page, search: search.value, scope: all ? 'admin-all' : 'member' }));
  const meta = list.data?.meta.pagination;

  function update(change: (p: URLSearchParams) => void) {
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      change(p);
      return p;
    });
  }
  function goToPage(next: number) {
    setPage(next);
    window.scrollTo({ top: 0 });
  }

  // A page past the end (servers were deleted, or an old link): show the last page instead.
  const lastPage = meta?.total_pages ?? 0;
  const pastEnd = !list.isPlaceholderData && meta !== undefined && meta.total > 0 && page > lastPage;
  useEffect(() => {
    if (pastEnd) setPage(lastPage, { replace: true });
  }, [pastEnd, lastPage, setPage]);

  const searching = search.value !== '';
  const stale = list.isPlaceholderData || (list.isFetching && search.pending);

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h1 className="text-2xl font-semibold text-white">{t('servers.list.title')}</h1>
        <p className="text-sm text-zinc-400" role="status" aria-live="polite">
          {/* Nothing to count: the empty state says it. */}
          {meta && meta.total > 0 ? t(searching ? 'servers.list.countFound' : 'servers.list.count', { count: meta.total }) : ''}
        </p>
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:gap-6">
        <SearchInput
          ref={searchRef}
          label={t('servers.list.search')}
          placeholder={t('servers.list.searchPlaceholder')}
          value={search.draft}
          onValueChange={search.setDraft}
          onCommit={search.commit}
          aria-keyshortcuts="/"
          className="sm:max-w-md sm:flex-1"
        />
        {account.admin && (
          <Switch
            checked={all}
            onCheckedChange={(on) =>
              update((p) => {
                if (on) p.set('all', '1');
                else p.delete('all');
                p.delete('page');
              })
            }
            label={t('servers.list.showAll')}
          />
        )}
      </div>

      {list.isPending ? (
        <ServerListSkeleton />
      ) : list.isError && !list.data ? (
        <ErrorState
          error={list.error}
          action={
            <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
              {t('servers.list.retry')}
            </Button>
          }
        />
      ) : list.data.data.length === 0 ? (
        pastEnd ? (
          <ServerListSkeleton />
        ) : searching ? (
          <EmptyState title={t('servers.list.noMatch', { search: search.value })}>
            <p>{t('servers.list.searchHelp')}</p>
            <Button variant="secondary" size="sm" className="mt-4" onClick={() => search.commit('')}>
              {t('servers.list.clearSearch')}
            </Button>
          </EmptyState>
        ) : (
          <EmptyState title={t(all ? 'servers.list.emptyAll' : 'servers.list.empty')}>
            {all ? null : <p>{t('servers.list.emptyHelp')}</p>}
            {!all && account.admin ? <p className="mt-1">{t('servers.list.emptyAdminHelp')}</p> : null}
          </EmptyState>
        )
      ) : (
        <>
          <ul
            aria-label={t('servers.list.title')}
            aria-busy={stale || undefined}
            className={cn('flex flex-col gap-3 transition-opacity', stale && 'opacity-60')}
          >
            {list.data.data.map((s) => (
              <ServerRow key={s.attributes.uuid} server={s.attributes} adminView={all} />
            ))}
          </ul>
          {meta && <Pagination meta={meta} onPage={goToPage} label={t('servers.list.pages')} />}
        </>
      )}
    </div>
  );
}
