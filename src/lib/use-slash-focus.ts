import { useEffect, useMemo, type RefObject } from 'react';
import { useT } from './messages';
import { isTyping, useShortcuts, type ShortcutGroup } from './shortcuts';

/**
 * "/" jumps to a page's search box, as in most list UIs: not while typing in a field, and not
 * while a dialog is open (its own fields come first). The "?" sheet lists it.
 */
export function useSlashFocus(target: RefObject<HTMLElement | null>): void {
  const t = useT();
  const slash = useMemo<ShortcutGroup>(
    () => ({ title: t('lib.shortcuts.thisPage'), shortcuts: [{ keys: [['/']], description: t('lib.shortcuts.focusSearch') }] }),
    [t],
  );
  useShortcuts(slash);
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
