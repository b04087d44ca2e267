import { memo, type MouseEvent } from 'react';
import { Link } from 'react-router';
import type { FileObject } from '../../contract/files';
import { Checkbox } from '../../components/ui/checkbox';
import { cn } from '../../components/ui/cn';
import type { FileActions } from './file-actions';
import { FileIcon } from './file-icon';
import { formatBytes, formatDate } from './format';
import { useLocale } from '../../lib/i18n/catalog';
import { useT } from './messages';
import { RowMenu } from './row-menu';
import { canActOnSelection, type FilePermissions } from './use-file-permissions';

export const ROW_HEIGHT = 44;
export const GRID_COLUMNS = 'grid grid-cols-[2.25rem_minmax(0,1fr)_5.25rem_2.5rem] sm:grid-cols-[2.75rem_minmax(0,1fr)_6rem_12.5rem_2.75rem]';

export interface RowSelectEvent {
  shift: boolean;
  /** Ctrl/Cmd-click, or the checkbox: add or remove without touching the rest. */
  toggle: boolean;
}

interface Props {
  entry: FileObject;
  index: number;
  href: string | null;
  selected: boolean;
  active: boolean;
  menuOpen: boolean;
  perms: FilePermissions;
  actions: FileActions;
  /** Offset from the top of the list body, in pixels. */
  start: number;
  onSelect: (name: string, e: RowSelectEvent) => void;
  onActivate: (index: number) => void;
  onMenuOpenChange: (name: string, open: boolean) => void;
}

function fromInteractive(e: MouseEvent): boolean {
  return e.target instanceof Element && e.target.closest('a,button,input,[role="menu"]') !== null;
}

/** One row of the file grid; memoised, so scrolling 10,000 entries re-renders only new rows. */
export const FileRow = memo(function FileRow(p: Props) {
  const { entry } = p;
  const t = useT();
  const locale = useLocale();
  return (
    <div
      role="row"
      aria-rowindex={p.index + 2}
      aria-selected={p.selected}
      aria-label={entry.name}
      data-index={p.index}
      tabIndex={p.active ? 0 : -1}
      style={{ height: ROW_HEIGHT, transform: `translateY(${p.start}px)` }}
      onFocus={(e) => {
        if (e.target === e.currentTarget) p.onActivate(p.index);
      }}
      onClick={(e) => {
        if (fromInteractive(e)) return;
        p.onActivate(p.index);
        p.onSelect(entry.name, { shift: e.shiftKey, toggle: e.ctrlKey || e.metaKey });
      }}
      onDoubleClick={(e) => {
        if (!fromInteractive(e) && p.href) p.actions.open(entry);
      }}
      className={cn(
        GRID_COLUMNS,
        'absolute left-0 top-0 w-full cursor-default select-none items-center border-b border-zinc-800/70 text-sm focus-visible:-outline-offset-2',
        p.selected ? 'bg-sky-950/60 hover:bg-sky-950/80' : 'hover:bg-zinc-900',
      )}
    >
      <div role="gridcell" className="flex justify-center">
        {canActOnSelection(p.perms) && (
          <Checkbox
            tabIndex={-1}
            aria-label={t('files.row.select', { name: entry.name })}
            checked={p.selected}
            onChange={(e) => {
              p.onActivate(p.index);
              const shift = 'shiftKey' in e.nativeEvent && e.nativeEvent.shiftKey === true;
              p.onSelect(entry.name, { shift, toggle: true });
            }}
          />
        )}
      </div>
      <div role="gridcell" className="flex min-w-0 items-center gap-2.5 pr-2">
        <FileIcon entry={entry} />
        {p.href ? (
          <Link
            to={p.href}
            tabIndex={-1}
            className={cn('truncate hover:underline', entry.is_file ? 'text-zinc-100' : 'font-medium text-sky-200')}
            title={entry.name}
          >
            {entry.name}
          </Link>
        ) : (
          <span className="truncate text-zinc-300" title={entry.name}>
            {entry.name}
          </span>
        )}
      </div>
      <div role="gridcell" className="whitespace-nowrap pr-3 text-right tabular-nums text-zinc-400">
        {entry.is_file ? formatBytes(entry.size, locale) : <span className="sr-only">{t('files.row.folder')}</span>}
      </div>
      <div role="gridcell" className="hidden truncate pr-3 text-zinc-400 sm:block">
        <time dateTime={entry.modified_at}>{formatDate(entry.modified_at, locale)}</time>
      </div>
      <div role="gridcell" className="flex justify-center">
        <RowMenu
          entry={entry}
          perms={p.perms}
          actions={p.actions}
          open={p.menuOpen}
          onOpenChange={(open) => p.onMenuOpenChange(entry.name, open)}
          tabbable={p.active}
        />
      </div>
    </div>
  );
});
