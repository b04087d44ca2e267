import type { ReactNode } from 'react';
import { PageSpinner } from './spinner';
import { ErrorState } from './states';

/**
 * A list query's four states, as every list page shows them: a spinner while it loads, the error
 * when it failed, `empty` when it holds nothing, else `children` with its items.
 */
export function QueryList<T>({
  query,
  items,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  /** The loaded items (the query's data, or what the page made of it). */
  items: readonly T[] | undefined;
  empty: ReactNode;
  children: (items: readonly T[]) => ReactNode;
}) {
  if (query.isPending) return <PageSpinner />;
  if (query.isError || !items) return <ErrorState error={query.error} />;
  return items.length === 0 ? empty : children(items);
}
