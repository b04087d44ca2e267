import { useEffect, useSyncExternalStore } from 'react';

/**
 * The one registry of keyboard shortcuts: pages (and the shell) declare the keys they handle
 * while they are mounted, and the "?" sheet lists what is declared now, so the sheet can never
 * list a key that the page on screen does not have.
 */
export interface Shortcut {
  /** Key combinations as pressed, e.g. `['Mod', 'K']` (Mod: ⌘ on a Mac, Ctrl elsewhere). Alternatives: one array each. */
  keys: readonly (readonly string[])[];
  description: string;
}

export interface ShortcutGroup {
  /** What the keys act on ("Console", "File list", "Everywhere"). */
  title: string;
  shortcuts: readonly Shortcut[];
}

let groups: readonly (ShortcutGroup & { token: symbol })[] = [];
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Declares `group` while the calling component is mounted (and `enabled`). Pass a constant or memoized group. */
export function useShortcuts(group: ShortcutGroup, enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const token = Symbol(group.title);
    groups = [...groups, { ...group, token }];
    emit();
    return () => {
      groups = groups.filter((g) => g.token !== token);
      emit();
    };
  }, [group, enabled]);
}

/**
 * The groups declared now, those with the same title merged (two lists on one page declaring "/"
 * show it once), in the order they were declared.
 */
export function useDeclaredShortcuts(): ShortcutGroup[] {
  const current = useSyncExternalStore(subscribe, () => groups);
  const merged = new Map<string, Shortcut[]>();
  for (const g of current) {
    const list = merged.get(g.title) ?? [];
    for (const s of g.shortcuts) if (!list.some((o) => o.description === s.description)) list.push(s);
    merged.set(g.title, list);
  }
  return [...merged].map(([title, shortcuts]) => ({ title, shortcuts }));
}

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** A key as shown to the user on this platform. */
export function keyLabel(key: string): string {
  if (key === 'Mod') return isMac ? '⌘' : 'Ctrl';
  return key;
}

/** The `aria-keyshortcuts` value of one combination (`Mod` becomes Meta or Control). */
export function ariaKeys(keys: readonly string[]): string {
  return keys.map((k) => (k === 'Mod' ? (isMac ? 'Meta' : 'Control') : k)).join('+');
}

/**
 * Whether a key press happened while typing (a field, the code editor, the terminal's hidden
 * textarea): single-key shortcuts such as "/" and "?" must leave it alone then.
 */
export function isTyping(event: KeyboardEvent): boolean {
  const el = event.target;
  return el instanceof HTMLElement && (el.isContentEditable || el.closest('input, textarea, select, [contenteditable="true"], .cm-editor') !== null);
}
