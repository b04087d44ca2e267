import type { Pagination as PaginationMeta } from '../../contract/envelope';
import { Button } from './button';

/** Previous/next paging with "page X of Y"; the caller keeps the page in the URL. */
export function Pagination({ meta, onPage, label = 'Pagination' }: { meta: PaginationMeta; onPage: (page: number) => void; label?: string }) {
  if (meta.total_pages <= 1) return null;
  const { current_page: page, total_pages: pages } = meta;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 py-3">
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="text-sm text-zinc-400" aria-live="polite">
        Page {page} of {pages} · {meta.total} total
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
