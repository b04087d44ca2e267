import type { FileObject } from '../../contract/files';

export type SortKey = 'name' | 'size' | 'modified';
export type SortOrder = 'asc' | 'desc';
export interface Sort {
  key: SortKey;
  order: SortOrder;
}

// One collator for every comparison: `localeCompare` builds one per call, too slow for 10,000 names.
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function byName(a: FileObject, b: FileObject): number {
  return collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/**
 * Folders first (always, whatever the order), then by the key; ties fall back to the name.
 * Folder sizes are inode sizes, not contents, so folders sort among themselves by name when the
 * key is size. Timestamps are parsed once per entry, not per comparison.
 */
export function sortEntries(entries: readonly FileObject[], sort: Sort): FileObject[] {
  const dir = sort.order === 'asc' ? 1 : -1;
  const times = sort.key === 'modified' ? new Map(entries.map((e) => [e, Date.parse(e.modified_at) || 0])) : null;
  return [...entries].sort((a, b) => {
    if (a.is_file !== b.is_file) return a.is_file ? 1 : -1;
    let c = 0;
    if (sort.key === 'size' && a.is_file) c = a.size - b.size;
    else if (times) c = (times.get(a) ?? 0) - (times.get(b) ?? 0);
    if (c !== 0) return c * dir;
    return sort.key === 'name' ? byName(a, b) * dir : byName(a, b);
  });
}

/** Case-insensitive substring match on the name; an empty filter keeps everything. */
export function filterEntries(entries: readonly FileObject[], filter: string): readonly FileObject[] {
  const needle = filter.trim().toLowerCase();
  if (!needle) return entries;
  return entries.filter((e) => e.name.toLowerCase().includes(needle));
}

/** The order a column header toggles to: same key flips, a new key starts ascending (newest first for dates). */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key) return { key, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { key, order: key === 'modified' ? 'desc' : 'asc' };
}
