import { useEffect, type ReactNode } from 'react';
import type { Pagination as PaginationMeta } from '../../contract/envelope';
import { formatCount } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { useT } from '../messages';
import type { ListSearch as ListSearchState } from '../../lib/use-list-search';
import { Pagination } from './pagination';
import { QueryList } from './query-list';
import { SearchInput } from './search-input';
import { PageSpinner } from './spinner';
import { EmptyState } from './states';

export interface ListPaging {
  meta: PaginationMeta | undefined;
  onPage: (page: number, options?: { replace?: boolean }) => void;
  /** The page navigation's name ("User list pages"). */
  label: string;
}

export interface ListPageProps<T> {
  /** The heading's id, which names the section. */
  headingId: string;
  title: string;
  /**
   * The total beside the heading, read out when it changes: a message for the count
   * (`(n) => t('users.count', { count: n })`), or an English noun ("user") until the page has one.
   */
  noun?: string | ((total: number) => string);
  description?: ReactNode;
  /** The page's own controls, right of the heading (a create button). */
  action?: ReactNode;
  /** Between the heading and the search: a result, a secret shown once, an error. */
  notice?: ReactNode;
  search?: ReactNode;
  query: { isPending: boolean; isError: boolean; error: unknown; isPlaceholderData?: boolean };
  items: readonly T[] | undefined;
  /** What shows when there is nothing at all. */
  empty: ReactNode;
  /** The applied search: with it, an empty list says that nothing matches it. */
  searched?: string;
  paging?: ListPaging;
  children: (items: readonly T[]) => ReactNode;
  /** The page's dialogs, at the end of its section. */
  dialogs?: ReactNode;
}

/**
 * A list page of the admin area: heading with the live count and the page's action, its search,
 * the list's loading, error and empty states, the list itself and its pages (`?page=`).
 */
export function ListPage<T>({
  headingId,
  title,
  noun,
  description,
  action,
  notice,
  search,
  query,
  items,
  empty,
  searched,
  paging,
  children,
  dialogs,
}: ListPageProps<T>) {
  const meta = paging?.meta;
  const total = meta?.total ?? 0;
  // A page past the end (rows were deleted, an old link): the last page is shown instead.
  const lastPage = meta?.total_pages ?? 1;
  const beyond = meta !== undefined && total > 0 && meta.current_page > lastPage;
  const pastEnd = beyond && !query.isPlaceholderData;
  const onPage = paging?.onPage;
  useEffect(() => {
    if (pastEnd) onPage?.(lastPage, { replace: true });
  }, [pastEnd, lastPage, onPage]);
  const t = useT();
  const locale = useLocale();
  // English writes the list's name in lower case inside a sentence; the others quote it as it is.
  const listName = locale === 'en' ? title.toLowerCase() : title;
  const nothing = beyond ? <PageSpinner /> : searched ? <EmptyState title={t('ui.list.noMatch', { title: listName, searched })} /> : empty;
  const count = total === 0 || !noun ? '' : typeof noun === 'string' ? formatCount(total, noun, undefined, locale) : noun(total);
  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-baseline gap-x-3">
            <h2 id={headingId} className="text-lg font-semibold text-white">
              {title}
            </h2>
            {noun && (
              <p role="status" aria-live="polite" className="text-sm text-zinc-400">
                {count}
              </p>
            )}
          </div>
          {description && <p className="text-sm text-zinc-400">{description}</p>}
        </div>
        {action}
      </div>
      {notice}
      {search}
      <QueryList query={query} items={items} empty={nothing}>
        {(list) => (
          <>
            {children(list)}
            {meta && paging && <Pagination meta={meta} onPage={paging.onPage} label={paging.label} />}
          </>
        )}
      </QueryList>
      {dialogs}
    </section>
  );
}

export interface SearchField<C extends string> {
  value: C;
  /** Each column's name in the "Search in" menu. */
  choices: Readonly<Record<C, string>>;
  onChange: (next: C) => void;
}

/**
 * A list's search box ("/" focuses it), with a "Search in" menu when the API filters more than one
 * column (`?by=`).
 */
export function ListSearch<C extends string>({ search, label, field }: { search: ListSearchState; label: string; field?: SearchField<C> }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <SearchInput
        ref={search.ref}
        label={label}
        placeholder={t('ui.search.placeholder', { label })}
        value={search.draft}
        onValueChange={search.setDraft}
        onCommit={search.commit}
        aria-keyshortcuts="/"
        className="sm:max-w-md sm:flex-1"
      />
      {field && (
        <label className="flex items-center gap-2 text-sm text-zinc-300">
          <span>{t('ui.search.in')}</span>
          <select
            value={field.value}
            onChange={(e) => {
              const next = (Object.keys(field.choices) as C[]).find((c) => c === e.target.value);
              if (next) field.onChange(next);
            }}
            className="min-h-10 rounded-md bg-zinc-900 px-2 text-zinc-100 ring-1 ring-zinc-700 ring-inset focus:ring-2 focus:ring-sky-500 focus:outline-none"
          >
            {(Object.entries(field.choices) as [C, string][]).map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
