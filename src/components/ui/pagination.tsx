import type { Pagination as PaginationMeta } from '../../contract/envelope';
import { useLocale } from '../../lib/i18n/catalog';
import { formatNumber } from '../../lib/format';
import { useT } from '../messages';
import { Button } from './button';

/** Previous/next paging with "page X of Y"; the caller keeps the page in the URL. */
export function Pagination({ meta, onPage, label }: { meta: PaginationMeta; onPage: (page: number) => void; label?: string }) {
  const t = useT();
  const locale = useLocale();
  if (meta.total_pages <= 1) return null;
  const { current_page: page, total_pages: pages } = meta;
  return (
    <nav aria-label={label ?? t('ui.pagination')} className="flex items-center justify-between gap-3 py-3">
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('ui.pagination.previous')}
      </Button>
      <span className="text-sm text-zinc-400" aria-live="polite">
        {t('ui.pagination.status', { page: formatNumber(page, locale), pages: formatNumber(pages, locale), total: formatNumber(meta.total, locale) })}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('ui.pagination.next')}
      </Button>
    </nav>
  );
}
