import { Checkbox } from '../../components/ui/checkbox';
import { cn } from '../../components/ui/cn';
import { GRID_COLUMNS } from './file-row';
import { useT } from './messages';
import type { Sort, SortKey } from './sort';

interface Props {
  sort: Sort;
  onSort: (key: SortKey) => void;
  allSelected: boolean;
  someSelected: boolean;
  onSelectAll: (select: boolean) => void;
  disabled: boolean;
  /** Whether selecting leads anywhere (some mass action is allowed); otherwise no checkboxes. */
  selectable: boolean;
}

/** The column headers: select-all box and sort buttons (state announced through aria-sort). */
export function FileListHeader({ sort, onSort, allSelected, someSelected, onSelectAll, disabled, selectable }: Props) {
  const t = useT();
  const column = (key: SortKey, label: string, className?: string) => {
    const active = sort.key === key;
    return (
      <div role="columnheader" aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'} className={className}>
        <button
          type="button"
          onClick={() => onSort(key)}
          title={label}
          className={cn('inline-flex max-w-full items-center gap-1 rounded px-1 py-1 hover:text-white', active ? 'text-zinc-100' : 'text-zinc-400')}
        >
          {/* A longer word (German "Geändert") truncates rather than pushing the arrow out of the column. */}
          <span className="min-w-0 truncate">{label}</span>
          <span aria-hidden="true" className={cn('text-xs', active ? 'text-sky-400' : 'text-transparent')}>
            {active && sort.order === 'desc' ? '▼' : '▲'}
          </span>
        </button>
      </div>
    );
  };
  return (
    // Sticks under the app's header (h-14) while the page scrolls through a long folder.
    <div role="rowgroup" className="sticky top-14 z-10 rounded-t-lg border-b border-zinc-800 bg-zinc-900">
      <div role="row" aria-rowindex={1} className={cn(GRID_COLUMNS, 'h-10 items-center text-xs font-semibold uppercase tracking-wide')}>
        <div role="columnheader" className="flex justify-center">
          {selectable ? (
            <Checkbox
              aria-label={t('files.list.selectAll')}
              checked={allSelected}
              indeterminate={someSelected && !allSelected}
              disabled={disabled}
              onChange={(e) => onSelectAll(e.target.checked)}
            />
          ) : (
            <span className="sr-only">{t('files.list.selection')}</span>
          )}
        </div>
        {column('name', t('files.list.name'), '-ml-1 min-w-0')}
        {column('size', t('files.list.size'), 'flex min-w-0 justify-end pr-2')}
        {column('modified', t('files.list.modified'), 'hidden min-w-0 sm:block -ml-1')}
        <div role="columnheader">
          <span className="sr-only">{t('files.list.actions')}</span>
        </div>
      </div>
    </div>
  );
}
