import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Terminal as XTerm, type ITheme } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import type { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import '@xterm/xterm/css/xterm.css';
import type { ConsoleSocket, OutputEvent } from './socket-client';
import { useShortcuts, type ShortcutGroup } from '../../lib/shortcuts';
import { currentTheme, useTheme, type Theme } from '../../lib/theme';
import { useT } from './messages';

/*
 * The terminal: xterm.js showing the socket's output, read-only (commands have their own field).
 * Not unit-tested: xterm does not render in jsdom; the e2e journeys cover it.
 */

/** The panel's own notes, set apart from the server's output. */
const DAEMON_PREFIX = '\x1b[1;33m[Aerie]:\x1b[0;33m ';
/** Lines of the install script, marked so they are not read as the server's own output. */
const INSTALL_PREFIX = '\x1b[36minstall │\x1b[0m ';
/**
 * Ends every line, so none leaves the terminal in a state that hides or links what follows (the
 * panel's notes included): its first ESC ends an escape string left open (or cut at the daemon's
 * line limit), then an open hyperlink closes and colours and attributes reset (conceal too;
 * Pterodactyl's console resets them the same way).
 */
const LINE_END = '\x1b]8;;\x1b\\\x1b[0m';
/**
 * Modes a read-only log has no use for: mouse reports (they take the viewer's wheel and selection)
 * and the alternate screen (no scrollback). A server's request to set one is dropped.
 */
const IGNORED_MODES = new Set([9, 1000, 1001, 1002, 1003, 47, 1047, 1049]);

/** What the "?" sheet lists for the terminal (the keys handled below). */
function useTerminalKeys(): ShortcutGroup {
  const t = useT();
  return useMemo(
    () => ({
      title: t('console.title'),
      shortcuts: [
        { keys: [['Mod', 'F']], description: t('console.keys.search') },
        { keys: [['Enter'], ['Shift', 'Enter']], description: t('console.keys.match') },
        { keys: [['Escape']], description: t('console.keys.closeSearch') },
        { keys: [['Mod', 'C']], description: t('console.keys.copy') },
      ],
    }),
    [t],
  );
}

// The page's zinc greys; on light, ANSI colours dark enough to read on the pale page (after GitHub's light palette).
const THEMES: Record<Theme, ITheme> = {
  dark: {
    background: '#09090b',
    foreground: '#e4e4e7',
    cursor: '#09090b',
    selectionBackground: '#3f3f46',
    black: '#27272a',
    brightBlack: '#71717a',
  },
  light: {
    background: '#f6f6f7',
    foreground: '#27272a',
    cursor: '#f6f6f7',
    selectionBackground: '#d4d4d8',
    black: '#27272a',
    red: '#c11c28',
    green: '#116329',
    yellow: '#6b4400',
    blue: '#0550ae',
    magenta: '#7a3ec8',
    cyan: '#1b6b73',
    white: '#52525c',
    brightBlack: '#52525c',
    brightRed: '#a40e26',
    brightGreen: '#1a7f37',
    brightYellow: '#7d4e00',
    brightBlue: '#0969da',
    brightMagenta: '#8250df',
    brightCyan: '#1b7c83',
    brightWhite: '#3f3f46',
  },
};

export function Terminal({ socket }: { socket: ConsoleSocket }) {
  useShortcuts(useTerminalKeys());
  const tr = useT();
  const host = useRef<HTMLDivElement>(null);
  const term = useRef<XTerm | null>(null);
  const search = useRef<SearchAddon | null>(null);
  const [scrolledUp, setScrolledUp] = useState(false);
  const [searching, setSearching] = useState(false);
  const [query, setQuery] = useState('');
  const theme = useTheme();
  const searchInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const t = new XTerm({
      disableStdin: true,
      convertEol: true,
      cursorBlink: false,
      scrollback: 5000,
      fontSize: 13,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
      theme: THEMES[currentTheme()],
      allowProposedApi: true,
    });
    const fit = new FitAddon();
    t.loadAddon(fit);
    t.loadAddon(new WebLinksAddon());
    t.open(el);
    t.parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => params.some((p) => typeof p === 'number' && IGNORED_MODES.has(p)));
    // Ctrl/Cmd+C copies the selection (the terminal takes no input, so nothing else needs the keys).
    t.attachCustomKeyEventHandler((e) => {
      if (e.type === 'keydown' && (e.ctrlKey || e.metaKey) && e.key === 'c' && t.hasSelection()) {
        void navigator.clipboard?.writeText(t.getSelection()).catch(() => undefined);
        return false;
      }
      return !((e.ctrlKey || e.metaKey) && e.key === 'f');
    });
    const refit = () => {
      try {
        fit.fit();
      } catch {
        // Not laid out yet (hidden): the next resize fits it.
      }
    };
    refit();
    const observer = new ResizeObserver(refit);
    observer.observe(el);
    const atBottom = () => setScrolledUp(t.buffer.active.viewportY < t.buffer.active.baseY);
    const scroll = t.onScroll(atBottom);
    const written = t.onWriteParsed(atBottom);
    const unsubscribe = socket.onOutput((e: OutputEvent) => {
      // Through the write queue (clear() would run before lines still queued): screen, scrollback, home.
      if (e.kind === 'clear') t.write('\x1b[2J\x1b[3J\x1b[H');
      else if (e.kind === 'daemon') t.writeln(`${DAEMON_PREFIX}${e.line}${LINE_END}`);
      else if (e.kind === 'install') t.writeln(`${INSTALL_PREFIX}${e.line}${LINE_END}`);
      else t.writeln(`${e.line}${LINE_END}`);
    });
    term.current = t;
    return () => {
      unsubscribe();
      observer.disconnect();
      scroll.dispose();
      written.dispose();
      t.dispose();
      term.current = null;
      search.current = null;
    };
  }, [socket]);

  // The theme changes live, the scrollback kept.
  useEffect(() => {
    if (term.current) term.current.options.theme = THEMES[theme];
  }, [theme]);

  useEffect(() => {
    if (!searching) return;
    searchInput.current?.focus();
    // The search addon is loaded the first time someone searches: most visits never do.
    if (search.current) return;
    void import('@xterm/addon-search').then(({ SearchAddon }) => {
      const t = term.current;
      if (!t || search.current) return;
      search.current = new SearchAddon();
      t.loadAddon(search.current);
    });
  }, [searching]);

  // Ctrl/Cmd+F searches the scrollback only while the console has focus; elsewhere the browser finds.
  function onKeyDown(e: KeyboardEvent) {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'f') {
      e.preventDefault();
      setSearching(true);
      searchInput.current?.select();
    }
  }

  function find(direction: 'next' | 'previous') {
    if (!query) return;
    if (direction === 'next') search.current?.findNext(query);
    else search.current?.findPrevious(query);
  }

  function closeSearch() {
    setSearching(false);
    search.current?.clearDecorations();
    term.current?.clearSelection();
    term.current?.focus();
  }

  return (
    <div className="relative" onKeyDown={onKeyDown}>
      {searching && (
        <div role="search" className="absolute top-2 right-2 z-10 flex items-center gap-1 rounded-md bg-zinc-800 p-1 shadow-lg ring-1 ring-zinc-700">
          <input
            ref={searchInput}
            type="search"
            aria-label={tr('console.search.label')}
            placeholder={tr('console.search.placeholder')}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              if (e.target.value) search.current?.findNext(e.target.value, { incremental: true });
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') find(e.shiftKey ? 'previous' : 'next');
              if (e.key === 'Escape') closeSearch();
            }}
            className="w-40 rounded bg-zinc-900 px-2 py-1 text-sm text-zinc-100 ring-1 ring-zinc-700 outline-none focus:ring-sky-500"
          />
          <SmallButton label={tr('console.search.previous')} onClick={() => find('previous')}>
            ↑
          </SmallButton>
          <SmallButton label={tr('console.search.next')} onClick={() => find('next')}>
            ↓
          </SmallButton>
          <SmallButton label={tr('console.search.close')} onClick={closeSearch}>
            ✕
          </SmallButton>
        </div>
      )}
      <div ref={host} className="h-[min(60vh,32rem)] min-h-64 overflow-hidden bg-zinc-950 p-2" />
      {scrolledUp && (
        <button
          type="button"
          onClick={() => term.current?.scrollToBottom()}
          className="absolute right-4 bottom-3 z-10 rounded-full bg-sky-700 px-3 py-1.5 text-xs font-medium text-always-white shadow-lg hover:bg-sky-600"
        >
          {tr('console.jumpToBottom')}
        </button>
      )}
    </div>
  );
}

function SmallButton({ label, onClick, children }: { label: string; onClick: () => void; children: string }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className="min-h-7 min-w-7 rounded text-sm text-zinc-300 hover:bg-zinc-700 hover:text-white"
    >
      {children}
    </button>
  );
}
