import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** `?page=` as a page number; anything odd is page 1. */
export function pageFromParam(raw: string | null): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 1 ? n : 1;
}

/**
 * A paged list's page, kept in the URL (`?page=`, absent on page 1) so a reload, a shared link or
 * Back shows the same page: the page number and the setter the list's pagination calls (`replace`
 * corrects the address without a new history entry).
 */
export function usePageParam(): [number, (page: number, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const setPage = useCallback(
    (page: number, options?: { replace?: boolean }) =>
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          if (page > 1) p.set('page', String(page));
          else p.delete('page');
          return p;
        },
        { replace: options?.replace },
      ),
    [setParams],
  );
  return [pageFromParam(params.get('page')), setPage];
}
