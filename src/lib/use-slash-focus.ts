import { useEffect, type RefObject } from 'react';

/**
 * "/" jumps to a page's search box, as in most list UIs: not while typing in a field, and not
 * while a dialog is open (its own fields come first).
 */
export function useSlashFocus(target: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key !== '/' || event.metaKey || event.ctrlKey || event.altKey) return;
      const el = event.target;
      if (el instanceof HTMLElement && (el.isContentEditable || el.closest('input, textarea, select, [contenteditable="true"]'))) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      event.preventDefault();
      target.current?.focus();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [target]);
}
