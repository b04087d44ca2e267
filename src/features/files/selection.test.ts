import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, pruneSelection, selectAll, selectedInOrder, selectRange, toggle } from './selection';

const order = ['a', 'b', 'c', 'd', 'e'];
const names = (s: { selected: ReadonlySet<string> }) => [...s.selected].sort();

describe('selection', () => {
  it('toggles and sets the anchor', () => {
    const s = toggle(EMPTY_SELECTION, 'b');
    expect(names(s)).toEqual(['b']);
    expect(s.anchor).toBe('b');
    expect(names(toggle(s, 'b'))).toEqual([]);
  });

  it('adds a range from the anchor in visible order, both directions', () => {
    const s = toggle(EMPTY_SELECTION, 'b');
    expect(names(selectRange(s, order, 'd'))).toEqual(['b', 'c', 'd']);
    const t = toggle(EMPTY_SELECTION, 'd');
    expect(names(selectRange(t, order, 'a'))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('treats a range without an anchor (or a filtered-out one) as a toggle', () => {
    expect(names(selectRange(EMPTY_SELECTION, order, 'c'))).toEqual(['c']);
    const s = toggle(EMPTY_SELECTION, 'zz');
    expect(names(selectRange(s, order, 'c'))).toEqual(['c', 'zz']);
  });

  it('selects all and keeps only present names after a refetch', () => {
    const all = selectAll(order);
    expect(names(all)).toEqual(order);
    const pruned = pruneSelection(all, new Set(['a', 'e']));
    expect(names(pruned)).toEqual(['a', 'e']);
    expect(pruneSelection(pruned, new Set(order))).toBe(pruned);
  });

  it('lists selected names in visible order', () => {
    const s = toggle(toggle(EMPTY_SELECTION, 'd'), 'a');
    expect(selectedInOrder(s, order)).toEqual(['a', 'd']);
  });
});
