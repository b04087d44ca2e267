/*
 * Multi-select over the visible (sorted and filtered) order, keyed by name so a refetch that
 * reorders or adds rows keeps what the user picked. Pure functions; the page holds the state.
 */
export interface Selection {
  selected: ReadonlySet<string>;
  /** Where the next shift-click range starts. */
  anchor: string | null;
}

export const EMPTY_SELECTION: Selection = { selected: new Set(), anchor: null };

export function toggle(sel: Selection, name: string): Selection {
  const next = new Set(sel.selected);
  if (next.has(name)) next.delete(name);
  else next.add(name);
  return { selected: next, anchor: name };
}

/** Adds the names between the anchor and `name` (inclusive, in `order`) to the selection. */
export function selectRange(sel: Selection, order: readonly string[], name: string): Selection {
  const to = order.indexOf(name);
  const from = sel.anchor === null ? -1 : order.indexOf(sel.anchor);
  if (to < 0) return sel;
  if (from < 0) return toggle(sel, name);
  const next = new Set(sel.selected);
  const [lo, hi] = from < to ? [from, to] : [to, from];
  for (let i = lo; i <= hi; i += 1) {
    const n = order[i];
    if (n !== undefined) next.add(n);
  }
  return { selected: next, anchor: sel.anchor };
}

export function selectAll(order: readonly string[]): Selection {
  return { selected: new Set(order), anchor: order[0] ?? null };
}

/** Keeps only names still present (after a delete, rename or refetch). */
export function pruneSelection(sel: Selection, present: ReadonlySet<string>): Selection {
  let changed = false;
  const next = new Set<string>();
  for (const n of sel.selected) {
    if (present.has(n)) next.add(n);
    else changed = true;
  }
  const anchor = sel.anchor !== null && present.has(sel.anchor) ? sel.anchor : null;
  return changed || anchor !== sel.anchor ? { selected: next, anchor } : sel;
}

/** The names in `order` that are selected, in that order. */
export function selectedInOrder(sel: Selection, order: readonly string[]): string[] {
  return order.filter((n) => sel.selected.has(n));
}
