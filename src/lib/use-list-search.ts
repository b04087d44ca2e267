import { useCallback, useRef, type RefObject } from 'react';
import { useSearchParams } from 'react-router';
import { useSearchParamInput, type SearchParamInput } from './use-search-param';
import { useSlashFocus } from './use-slash-focus';

// A new search or search field starts the list again from its first page.
const RESET_PAGE = ['page'] as const;

export interface ListSearch extends SearchParamInput {
  /** For the search box, which "/" focuses. */
  ref: RefObject<HTMLInputElement | null>;
}

/**
 * A paged list's text search: the URL's `?q=` (a new search drops `?page=`), and "/" jumps to the
 * box, as in the client area's server list.
 */
export function useListSearch(): ListSearch {
  const search = useSearchParamInput('q', { reset: RESET_PAGE });
  const ref = useRef<HTMLInputElement>(null);
  useSlashFocus(ref);
  return { ...search, ref };
}

/**
 * One of a few values kept in a URL parameter (the column a search looks in, `?by=`): anything
 * else reads as `fallback`, which leaves the parameter out. A change goes back to page 1.
 */
export function useChoiceParam<C extends string>(name: string, choices: readonly C[], fallback: C): [C, (next: C) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get(name);
  const value = choices.find((c) => c === raw) ?? fallback;
  const set = useCallback(
    (next: C) =>
      setParams((prev) => {
        const p = new URLSearchParams(prev);
        if (next === fallback) p.delete(name);
        else p.set(name, next);
        for (const key of RESET_PAGE) p.delete(key);
        return p;
      }),
    [name, fallback, setParams],
  );
  return [value, set];
}
