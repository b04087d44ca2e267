import * as RadixDialog from '@radix-ui/react-dialog';
import { Fragment, useDeferredValue, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { matchPath, useLocation, useNavigate } from 'react-router';
import { useAccount } from '../../app/require-auth';
import { ModalFrame } from '../../components/ui/dialog';
import { cn } from '../../components/ui/cn';
import { SearchIcon } from '../../components/ui/search-input';
import { toast } from '../../components/ui/toast';
import { usePageLabel } from '../../app/page-label';
import { useAccountSections } from '../account/api';
import { usePowerAction } from '../console/api';
import { memberPermissions, serverQueries } from '../servers/api';
import { t as translate, useT, type PaletteMessage } from './messages';
import { paletteItems, type OpenServer, type PaletteItem, type PaletteSection } from './palette-items';
import { loadRecent, pushRecent } from './recent';

const SERVER_RESULTS = 8;
const POWER_SENT = { start: 'palette.sent.start', restart: 'palette.sent.restart', stop: 'palette.sent.stop', kill: 'palette.sent.kill' } as const;
const SECTION_NAMES: Record<PaletteSection, PaletteMessage> = {
  Recent: 'palette.section.recent',
  Actions: 'palette.section.actions',
  'This server': 'palette.section.thisServer',
  Servers: 'palette.section.servers',
  'Go to': 'palette.section.goTo',
};

/** The open server (from the URL) with the caller's permissions, once its detail is loaded. */
function useOpenServer(): OpenServer | null {
  const { pathname } = useLocation();
  const routeId = matchPath({ path: '/server/:id/*' }, pathname)?.params.id ?? '';
  const detail = useQuery({ ...serverQueries.detail(routeId), enabled: routeId !== '' });
  return useMemo(() => {
    if (!routeId || !detail.data) return null;
    const filesPath = matchPath({ path: '/server/:id/files/*' }, pathname) ? pathname : null;
    return { server: detail.data.attributes, routeId, permissions: memberPermissions(detail.data.meta), filesPath };
  }, [routeId, detail.data, pathname]);
}

/**
 * Ctrl/⌘+K: a combobox over servers (the server list's own search), the open server's pages and
 * actions the caller may use, and the account's pages, recent choices first. Arrows, Home/End and
 * Enter choose; Escape closes and focus goes back where it was.
 */
export function CommandPalette({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const openServer = useOpenServer();
  // Here, not in the body: the body unmounts as the palette closes, and the power call outlives it.
  const power = usePowerAction(openServer?.server.uuid ?? '');
  const t = useT();

  function run(item: PaletteItem) {
    onOpenChange(false);
    if (item.power && openServer) {
      const name = openServer.server.name;
      const signal = item.power;
      power.mutate(signal, { onSuccess: () => toast.success(translate(POWER_SENT[signal], { name })) });
    } else if (item.href) {
      void navigate(item.href);
    }
  }
  return (
    <ModalFrame
      open={open}
      onOpenChange={onOpenChange}
      data-palette=""
      className="fixed top-[10vh] left-1/2 z-50 flex max-h-[80dvh] w-[calc(100vw-1.5rem)] max-w-xl -translate-x-1/2 flex-col overflow-hidden rounded-lg bg-zinc-900 shadow-xl ring-1 ring-zinc-700 focus:outline-none"
    >
      <RadixDialog.Title className="sr-only">{t('palette.title')}</RadixDialog.Title>
      <RadixDialog.Description className="sr-only">{t('palette.description')}</RadixDialog.Description>
      {open && <PaletteBody openServer={openServer} onChoose={run} />}
    </ModalFrame>
  );
}

function PaletteBody({ openServer, onChoose }: { openServer: OpenServer | null; onChoose: (item: PaletteItem) => void }) {
  const account = useAccount();
  const t = useT();
  const pageLabel = usePageLabel();
  const accountSections = useAccountSections();
  const words = useMemo(() => ({ t, pageLabel, accountSections }), [t, pageLabel, accountSections]);
  const [query, setQuery] = useState('');
  const search = useDeferredValue(query.trim());
  const [recent, setRecent] = useState(() => loadRecent(account.id));
  // The server list's search (the API's filter[*]: name, identifier, address, port), first page only.
  // A root admin's search reaches every server on the panel, as their list's "Show all servers" does.
  const scope = account.admin && search !== '' ? 'admin-all' : 'member';
  const list = useQuery(serverQueries.list({ page: 1, search, scope, perPage: SERVER_RESULTS }));
  const servers = useMemo(() => list.data?.data.map((s) => s.attributes) ?? [], [list.data]);
  const items = useMemo(
    // What is typed filters pages and actions at once (Enter right after typing runs what shows); servers follow their search.
    () => paletteItems({ query: query.trim(), open: openServer, servers, recent, admin: account.admin, words }),
    [query, openServer, servers, recent, account.admin, words],
  );
  const [active, setActive] = useState(0);
  const [activeFor, setActiveFor] = useState(items);
  if (activeFor !== items) {
    // New results: start again from the first.
    setActiveFor(items);
    setActive(0);
  }
  const listId = useId();
  const optionId = (index: number) => `${listId}-${index}`;

  function choose(item: PaletteItem) {
    setRecent(pushRecent(account.id, { id: item.id, label: item.label, detail: item.detail, href: item.href }));
    onChoose(item);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const last = items.length - 1;
    const to =
      e.key === 'ArrowDown'
        ? active >= last
          ? 0
          : active + 1
        : e.key === 'ArrowUp'
          ? active <= 0
            ? last
            : active - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (to !== null) {
      e.preventDefault();
      setActive(to);
      document.getElementById(optionId(to))?.scrollIntoView?.({ block: 'nearest' });
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const item = items[active];
      if (item) choose(item);
    }
  }

  const activeItem = items[active];
  return (
    <>
      <div className="flex items-center gap-2 border-b border-zinc-800 px-3">
        <SearchIcon />
        <input
          role="combobox"
          aria-label={t('palette.input')}
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeItem ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('palette.placeholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKeyDown}
          className="min-h-12 w-full bg-transparent text-base text-zinc-100 placeholder:text-zinc-500 focus:outline-none"
        />
      </div>
      <div id={listId} role="listbox" aria-label={t('palette.results')} aria-busy={list.isFetching || undefined} className="overflow-y-auto p-2">
        {items.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-zinc-400">
            {list.isFetching ? t('palette.searching') : t('palette.noMatch', { query: query.trim() })}
          </p>
        ) : (
          items.map((item, index) => (
            <Fragment key={`${item.section}:${item.id}`}>
              {item.section !== items[index - 1]?.section && (
                <div role="presentation" className="px-3 pt-3 pb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase first:pt-1">
                  {t(SECTION_NAMES[item.section])}
                </div>
              )}
              <div
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                onMouseMove={() => setActive(index)}
                // The input keeps focus (the combobox), so the keys keep working after a click.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(item)}
                className={cn(
                  'flex cursor-pointer items-baseline justify-between gap-3 rounded-md px-3 py-2 text-sm',
                  index === active ? 'bg-sky-800/60 text-white light:bg-sky-900' : 'text-zinc-200',
                )}
              >
                <span className="min-w-0 truncate">{item.label}</span>
                {item.detail && <span className="min-w-0 shrink truncate text-xs text-zinc-400">{item.detail}</span>}
              </div>
            </Fragment>
          ))
        )}
      </div>
    </>
  );
}
