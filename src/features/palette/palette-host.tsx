import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { SearchIcon } from '../../components/ui/search-input';
import { ariaKeys, isTyping, keyLabel, useShortcuts, type ShortcutGroup } from '../../lib/shortcuts';
import { useT } from './messages';

/*
 * The palette and the shortcut sheet stay out of the first load: their code comes on the first
 * ⌘K or "?", or (the palette) once the page has loaded and the browser is idle, so the first ⌘K opens at once.
 */
const loadPalette = () => import('./command-palette');
const loadSheet = () => import('./shortcut-sheet');
const CommandPalette = lazy(() => loadPalette().then((m) => ({ default: m.CommandPalette })));
const ShortcutSheet = lazy(() => loadSheet().then((m) => ({ default: m.ShortcutSheet })));

const PALETTE_KEYS = ['Mod', 'K'] as const;
const PRELOAD_AFTER_MS = 4000;

type Open = 'palette' | 'sheet' | null;

/** Another dialog is open (its own keys come first): "?" waits, ⌘K does not open over it. */
const otherDialogOpen = () => document.querySelector('[role="dialog"]:not([data-palette]), [role="alertdialog"]') !== null;

/** The header's "Search or jump…" button, and the keys that open the palette and the sheet from anywhere. */
export function PaletteHost() {
  const [open, setOpen] = useState<Open>(null);
  const openRef = useRef<Open>(null);
  // Mounted once first wanted, then kept, so reopening is instant.
  const [wanted, setWanted] = useState<{ palette: boolean; sheet: boolean }>({ palette: false, sheet: false });
  const t = useT();
  const everywhere = useMemo<ShortcutGroup>(
    () => ({
      title: t('palette.everywhere'),
      shortcuts: [
        { keys: [PALETTE_KEYS], description: t('palette.everywhere.palette') },
        { keys: [['?']], description: t('palette.everywhere.sheet') },
      ],
    }),
    [t],
  );
  useShortcuts(everywhere);
  const show = (which: Open) => {
    openRef.current = which;
    setOpen(which);
    if (which) setWanted((w) => ({ ...w, [which]: true }));
  };

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') {
        // Capture phase: the terminal and the code editor would otherwise take the keys for themselves.
        event.preventDefault();
        event.stopPropagation();
        if (openRef.current === 'palette') show(null);
        else if (!otherDialogOpen()) show('palette');
      } else if (event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event) && !otherDialogOpen()) {
        event.preventDefault();
        show('sheet');
      }
    }
    window.addEventListener('keydown', onKey, true);
    // Some seconds after the page has loaded, when the browser is idle, so it never competes with the
    // page's own first load (Safari has no requestIdleCallback: there it loads on the first use).
    let idle: number | null = null;
    const later = window.setTimeout(() => {
      if ('requestIdleCallback' in window) idle = window.requestIdleCallback(() => void loadPalette().catch(() => undefined), { timeout: 5000 });
    }, PRELOAD_AFTER_MS);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.clearTimeout(later);
      if (idle !== null) window.cancelIdleCallback(idle);
    };
  }, []);

  const close = (next: boolean) => {
    if (!next) show(null);
  };
  return (
    <>
      <button
        type="button"
        aria-label={t('palette.open')}
        aria-keyshortcuts={ariaKeys(PALETTE_KEYS)}
        onPointerEnter={() => void loadPalette()}
        onClick={() => show('palette')}
        className="inline-flex min-h-9 min-w-9 shrink-0 items-center justify-center gap-2 rounded-md px-2 text-sm text-zinc-300 ring-1 ring-zinc-700 hover:bg-zinc-800 hover:text-white sm:min-w-52 sm:justify-start sm:px-3"
      >
        <SearchIcon className="text-zinc-400" />
        <span className="hidden sm:inline">{t('palette.open')}</span>
        <kbd className="ml-auto hidden rounded bg-zinc-800 px-1.5 font-sans text-xs text-zinc-400 sm:inline">
          {PALETTE_KEYS.map(keyLabel).join(keyLabel('Mod') === '⌘' ? '' : '+')}
        </kbd>
      </button>
      <Suspense fallback={null}>
        {wanted.palette && <CommandPalette open={open === 'palette'} onOpenChange={close} />}
        {wanted.sheet && <ShortcutSheet open={open === 'sheet'} onOpenChange={close} />}
      </Suspense>
    </>
  );
}
