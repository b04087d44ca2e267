import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { FileObject } from '../../contract/files';
import type { FileActions } from './file-actions';
import { FileListHeader } from './file-list-header';
import { FileRow, ROW_HEIGHT, type RowSelectEvent } from './file-row';
import { selectAll, selectRange, toggle, EMPTY_SELECTION, type Selection } from './selection';
import type { Sort, SortKey } from './sort';
import { canActOnSelection, type FilePermissions } from './use-file-permissions';
import { useShortcuts, type ShortcutGroup } from '../../lib/shortcuts';
import { useT } from './messages';

/** What the "?" sheet lists for the list (the keys `onKeyDown` handles below). */
function listKeys(t: ReturnType<typeof useT>): ShortcutGroup {
  return {
    title: t('files.keys.title'),
    shortcuts: [
      { keys: [['↑'], ['↓']], description: t('files.keys.move') },
      { keys: [['Home'], ['End'], ['PageUp'], ['PageDown']], description: t('files.keys.jump') },
      { keys: [['Space']], description: t('files.keys.toggle') },
      { keys: [['Enter']], description: t('files.keys.open') },
      { keys: [['Backspace']], description: t('files.keys.parent') },
      { keys: [['Mod', 'A']], description: t('files.keys.selectAll') },
      { keys: [['Escape']], description: t('files.keys.clear') },
      { keys: [['F2']], description: t('files.rename') },
      { keys: [['Delete']], description: t('files.keys.delete') },
      { keys: [['Shift', 'F10'], ['ContextMenu']], description: t('files.keys.menu') },
    ],
  };
}

interface Props {
  entries: readonly FileObject[];
  perms: FilePermissions;
  actions: FileActions;
  hrefFor: (entry: FileObject) => string | null;
  selection: Selection;
  onSelectionChange: (next: Selection | ((prev: Selection) => Selection)) => void;
  sort: Sort;
  onSort: (key: SortKey) => void;
  onParent: () => void;
  /** The row to start on (the folder we came up from); focused when `autoFocus`. */
  initialName: string | null;
  autoFocus: boolean;
  label: string;
}

/**
 * The directory as an ARIA grid, virtualised: only the rows in view exist in the DOM, so 10,000
 * entries open and scroll like 10. One tab stop (the active row); arrows, Home/End and PageUp/Down
 * move it, Shift extends the selection, Space toggles, Enter opens, Backspace goes up, F2 renames,
 * Delete deletes, Ctrl/Cmd+A selects all, Escape clears, the context-menu key opens the row menu.
 */
export function FileList(p: Props) {
  const t = useT();
  useShortcuts(useMemo(() => listKeys(t), [t]));
  const { entries, selection, onSelectionChange } = p;
  const body = useRef<HTMLDivElement>(null);
  const initialIndex = p.initialName
    ? Math.max(
        0,
        entries.findIndex((e) => e.name === p.initialName),
      )
    : 0;
  const [active, setActive] = useState(initialIndex);
  const [menuFor, setMenuFor] = useState<string | null>(null);
  const focusWanted = useRef(false);
  const names = useMemo(() => entries.map((e) => e.name), [entries]);
  const activeIndex = Math.min(active, Math.max(0, entries.length - 1));

  // The page scrolls (one scrollbar, natural on phones); the list's offset in the document moves
  // when bars above it appear, so it is measured after every render.
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const top = body.current ? body.current.getBoundingClientRect().top + window.scrollY : 0;
      setScrollMargin((prev) => (Math.abs(top - prev) > 0.5 ? top : prev));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    // Anything above the list that grows or shrinks (selection bar, uploads, wrapping) resizes the body.
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: entries.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin,
    // Keep keyboard-focused rows clear of the sticky app and column headers.
    scrollPaddingStart: 104,
    // …and clear of the floating selection bar at the bottom.
    scrollPaddingEnd: 72,
    initialRect: { width: 800, height: 600 },
  });

  // A new folder starts at its top, or on the folder we came up from.
  useEffect(() => {
    if (initialIndex > 0) virtualizer.scrollToIndex(initialIndex, { align: 'center' });
    else if (body.current && body.current.getBoundingClientRect().top < 0) window.scrollTo({ top: 0 });
    // Only when the list first shows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Keyboard moves: scroll the row into view, then focus it once it is rendered.
  const focusRow = useCallback(
    (index: number) => {
      setActive(index);
      focusWanted.current = true;
      virtualizer.scrollToIndex(index, { align: 'auto' });
    },
    [virtualizer],
  );
  // After a folder change that unmounted the focused element (a row, a link), carry focus on.
  const autoFocus = useRef(p.autoFocus);
  useEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (autoFocus.current && lost) focusWanted.current = true;
  }, []);
  // True while focus is in the list. A focused row the virtualizer unmounts (a scroll correction
  // after a long jump) drops focus to the body without a blur, so the active row takes it back.
  const holdsFocus = useRef(false);
  useEffect(() => {
    const dropped = document.activeElement === null || document.activeElement === document.body;
    if (holdsFocus.current && dropped) focusWanted.current = true;
    if (!focusWanted.current) return;
    const row = body.current?.querySelector<HTMLElement>(`[data-index="${activeIndex}"]`);
    if (row) {
      focusWanted.current = false;
      row.focus({ preventScroll: true });
    }
  });

  const onSelect = useCallback(
    (name: string, e: RowSelectEvent) => {
      onSelectionChange((sel) => {
        if (e.shift) return selectRange(sel, names, name);
        if (e.toggle) return toggle(sel, name);
        return sel.selected.size === 1 && sel.selected.has(name) ? sel : { selected: new Set([name]), anchor: name };
      });
    },
    [names, onSelectionChange],
  );
  const onMenuOpenChange = useCallback((name: string, open: boolean) => setMenuFor(open ? name : null), []);

  function selectedOrActive(): string[] {
    if (selection.selected.size > 0) return names.filter((n) => selection.selected.has(n));
    const n = names[activeIndex];
    return n === undefined ? [] : [n];
  }

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (!(e.target instanceof HTMLElement) || e.target.getAttribute('role') !== 'row') return;
    const entry = entries[activeIndex];
    const mod = e.ctrlKey || e.metaKey;
    const move = (to: number) => {
      const index = Math.max(0, Math.min(entries.length - 1, to));
      const name = names[index];
      if (e.shiftKey && name !== undefined) {
        onSelectionChange((sel) => selectRange(sel.anchor === null ? { ...sel, anchor: names[activeIndex] ?? null } : sel, names, name));
      } else if (name !== undefined) {
        // Plain moves carry the range anchor along, so a later Shift+arrow starts here.
        onSelectionChange((sel) => ({ ...sel, anchor: name }));
      }
      focusRow(index);
    };
    const page = Math.max(1, Math.floor(window.innerHeight / ROW_HEIGHT) - 3);
    let handled = true;
    if (e.key === 'ArrowDown') move(activeIndex + 1);
    else if (e.key === 'ArrowUp') move(activeIndex - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(entries.length - 1);
    else if (e.key === 'PageDown') move(activeIndex + page);
    else if (e.key === 'PageUp') move(activeIndex - page);
    else if (e.key === ' ' && entry) onSelectionChange((sel) => toggle(sel, entry.name));
    else if (e.key === 'Enter' && entry && p.hrefFor(entry)) p.actions.open(entry);
    else if (e.key === 'Backspace' && !mod) p.onParent();
    else if (e.key === 'Escape' && selection.selected.size > 0) onSelectionChange(EMPTY_SELECTION);
    else if (mod && e.key.toLowerCase() === 'a') onSelectionChange(selectAll(names));
    else if (e.key === 'F2' && entry && p.perms.update) p.actions.rename(entry.name);
    else if (e.key === 'Delete' && p.perms.delete && entries.length > 0) p.actions.remove(selectedOrActive());
    else if ((e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) && entry) setMenuFor(entry.name);
    else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  const items = virtualizer.getVirtualItems();
  // Keep the grid reachable by Tab when the active row has been scrolled out of the DOM.
  const activeRendered = items.some((i) => i.index === activeIndex);

  const selectedVisible = useMemo(() => names.reduce((n, name) => n + (selection.selected.has(name) ? 1 : 0), 0), [names, selection]);

  return (
    <div
      role="grid"
      aria-label={p.label}
      aria-rowcount={entries.length + 1}
      aria-multiselectable="true"
      className="rounded-lg bg-zinc-950 ring-1 ring-zinc-800"
    >
      <FileListHeader
        sort={p.sort}
        onSort={p.onSort}
        allSelected={entries.length > 0 && selectedVisible === entries.length}
        someSelected={selectedVisible > 0}
        onSelectAll={(on) => onSelectionChange(on ? selectAll(names) : EMPTY_SELECTION)}
        disabled={entries.length === 0}
        selectable={canActOnSelection(p.perms)}
      />
      <div
        ref={body}
        role="rowgroup"
        onKeyDown={onKeyDown}
        tabIndex={!activeRendered && entries.length > 0 ? 0 : undefined}
        onBlur={(e) => {
          // Focus leaving for somewhere else, or let go of (a click on nothing): not ours to take back.
          if (!e.relatedTarget || !e.currentTarget.contains(e.relatedTarget)) holdsFocus.current = false;
        }}
        onFocus={(e) => {
          holdsFocus.current = true;
          if (e.target !== e.currentTarget || activeRendered) return;
          const first = items.find((i) => i.start >= window.scrollY) ?? items[0];
          if (first) focusRow(first.index);
        }}
        className="rounded-b-lg"
      >
        <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const entry = entries[item.index];
            if (!entry) return null;
            return (
              <FileRow
                key={entry.name}
                entry={entry}
                index={item.index}
                start={item.start - scrollMargin}
                href={p.hrefFor(entry)}
                selected={selection.selected.has(entry.name)}
                active={item.index === activeIndex}
                menuOpen={menuFor === entry.name}
                perms={p.perms}
                actions={p.actions}
                onSelect={onSelect}
                onActivate={setActive}
                onMenuOpenChange={onMenuOpenChange}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
