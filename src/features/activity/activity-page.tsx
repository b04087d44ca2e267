import { useCallback, useMemo } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useServerRef } from '../servers/api';
import { Button } from '../../components/ui/button';
import { Pagination } from '../../components/ui/pagination';
import { PageSpinner, Spinner } from '../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../components/ui/states';
import type { ApiError } from '../../lib/http';
import { useSearchParamInput } from '../../lib/use-search-param';
import { activityQueries, type ActivityList, type ActivitySort } from './api';
import { ActivityEntry } from './activity-entry';
import { ActivityToolbar } from './activity-toolbar';
import { useT } from './messages';

function readPage(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** The server's audit log. */
export function ActivityPage() {
  const server = useServerRef();
  const t = useT();
  return <ActivityLog options={(p) => activityQueries.list(server, p)} emptyText={t('activity.empty.server')} />;
}

/** The account's own audit log (sign-ins, password and key changes). */
export function AccountActivityPage() {
  const t = useT();
  return <ActivityLog options={activityQueries.account} emptyText={t('activity.empty.account')} placeholder={t('activity.placeholder.account')} />;
}

/** The admin area's log: what root admins and application keys changed (Aerie's endpoint; a Pterodactyl panel has none). */
export function AdminActivityPage() {
  const t = useT();
  return <ActivityLog options={activityQueries.admin} emptyText={t('activity.empty.admin')} placeholder={t('activity.placeholder.admin')} />;
}

/** An audit log: page, event filter and order live in the URL (?page, ?event, ?sort). */
function ActivityLog({ options, emptyText, placeholder }: { options: typeof activityQueries.account; emptyText: string; placeholder?: string }) {
  const [params, setParams] = useSearchParams();
  const t = useT();
  const page = readPage(params.get('page'));
  const filter = useSearchParamInput('event', { reset: ['page'] });
  const event = filter.value;
  const sort: ActivitySort = params.get('sort') === 'timestamp' ? 'timestamp' : '-timestamp';

  const query = useQuery(options({ page, event, sort }));
  // One "now" per response, so relative times in a list agree with each other.
  const now = useMemo(() => new Date(query.dataUpdatedAt || Date.now()), [query.dataUpdatedAt]);

  const update = useCallback(
    (changes: Record<string, string | null>, replace = false) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace },
      ),
    [setParams],
  );
  // Typing replaces the history entry (the hook); a clicked event name, paging and sorting add one.
  const filterByEvent = useCallback((value: string) => update({ event: value, page: null }), [update]);
  const setSort = (value: ActivitySort) => update({ sort: value === '-timestamp' ? null : value, page: null });
  const setPage = (value: number) => update({ page: value <= 1 ? null : String(value) });

  return (
    <section aria-labelledby="activity-heading" className="space-y-4">
      <div className="flex items-center gap-3">
        <h2 id="activity-heading" className="text-lg font-semibold text-white">
          {t('activity.title')}
        </h2>
        {query.isFetching && !query.isPending && <Spinner className="size-4" label={t('activity.updating')} />}
      </div>
      {/* Filters cannot help when the whole log is refused (403) or the server is busy (409). */}
      {!(query.data === undefined && query.isError && [403, 404, 409].includes(query.error.status)) && (
        <ActivityToolbar filter={filter} sort={sort} onSortChange={setSort} placeholder={placeholder} />
      )}
      <ActivityResults
        query={query}
        event={event}
        page={page}
        now={now}
        onFilterEvent={filterByEvent}
        onPage={setPage}
        onClearFilter={() => update({ event: null, page: null })}
        emptyText={emptyText}
      />
    </section>
  );
}

function ActivityResults({
  query,
  event,
  page,
  now,
  onFilterEvent,
  onPage,
  onClearFilter,
  emptyText,
}: {
  query: UseQueryResult<ActivityList, ApiError>;
  event: string;
  page: number;
  now: Date;
  onFilterEvent: (event: string) => void;
  onPage: (page: number) => void;
  onClearFilter: () => void;
  emptyText: string;
}) {
  const t = useT();
  if (query.isPending) return <PageSpinner />;
  // A failed refetch keeps the entries on screen (the query cache toasts the error).
  if (query.data === undefined) {
    const retry = (
      <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
        {t('activity.retry')}
      </Button>
    );
    return <ErrorState error={query.error} action={[403, 404].includes(query.error.status) ? undefined : retry} />;
  }
  const { data, meta } = query.data;

  if (data.length === 0) {
    if (page > 1 && meta.pagination.total > 0) {
      return (
        <EmptyState title={t('activity.pageEmpty')}>
          <Button variant="secondary" size="sm" onClick={() => onPage(1)}>
            {t('activity.firstPage')}
          </Button>
        </EmptyState>
      );
    }
    if (event) {
      return (
        <EmptyState title={t('activity.noMatch', { event })}>
          <Button variant="secondary" size="sm" onClick={onClearFilter}>
            {t('activity.clearFilter')}
          </Button>
        </EmptyState>
      );
    }
    return <EmptyState title={t('activity.empty')}>{emptyText}</EmptyState>;
  }

  return (
    <div aria-busy={query.isPlaceholderData || undefined}>
      <ol
        aria-label={t('activity.entries')}
        className={`divide-y divide-zinc-800 rounded-lg bg-zinc-900/70 ring-1 ring-zinc-800 ${query.isPlaceholderData ? 'opacity-60' : ''}`}
      >
        {data.map(({ attributes: entry }) => (
          <ActivityEntry key={entry.id} entry={entry} now={now} onFilterEvent={onFilterEvent} />
        ))}
      </ol>
      <Pagination meta={meta.pagination} onPage={onPage} label={t('activity.pages')} />
    </div>
  );
}
