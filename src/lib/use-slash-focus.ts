import { useEffect, type RefObject } from 'react';
import { isTyping, useShortcuts, type ShortcutGroup } from './shortcuts';

const SLASH: ShortcutGroup = { title: 'This page', shortcuts: [{ keys: [['/']], description: 'Focus the search box' }] };

/**
 * "/" jumps to a page's search box, as in most list UIs: not while typing in a field, and not
 * while a dialog is open (its own fields come first). The "?" sheet lists it.
 */
export function useSlashFocus(target: RefObject<HTMLElement | null>): void {
  useShortcuts(SLASH);
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key !== '/' || event.metaKey || event.ctrlKey || event.altKey || isTyping(event)) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      event.preventDefault();
      target.current?.focus();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [target]);
}
