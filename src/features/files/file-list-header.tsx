import { Checkbox } from '../../components/ui/checkbox';
import { cn } from '../../components/ui/cn';
import { GRID_COLUMNS } from './file-row';
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
  const column = (key: SortKey, label: string, className?: string) => {
    const active = sort.key === key;
    return (
      <div role="columnheader" aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'} className={className}>
        <button
          type="button"
          onClick={() => onSort(key)}
          className={cn('inline-flex items-center gap-1 rounded px-1 py-1 hover:text-white', active ? 'text-zinc-100' : 'text-zinc-400')}
        >
          {label}
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
              aria-label="Select all"
              checked={allSelected}
              indeterminate={someSelected && !allSelected}
              disabled={disabled}
              onChange={(e) => onSelectAll(e.target.checked)}
            />
          ) : (
            <span className="sr-only">Selection</span>
          )}
        </div>
        {column('name', 'Name', '-ml-1')}
        {column('size', 'Size', 'flex justify-end pr-2')}
        {column('modified', 'Modified', 'hidden sm:block -ml-1')}
        <div role="columnheader">
          <span className="sr-only">Actions</span>
        </div>
      </div>
    </div>
  );
}
