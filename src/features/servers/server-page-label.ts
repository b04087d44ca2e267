import { useCallback } from 'react';
import { useT } from './messages';

type Key = Parameters<ReturnType<typeof useT>>[0];

/** The server pages' names by path (the route table's `label` is their English name). */
const PAGE_LABELS: Readonly<Record<string, Key>> = {
  '': 'servers.page.console',
  overview: 'servers.page.overview',
  'files/*': 'servers.page.files',
  'file/*': 'servers.page.editFile',
  databases: 'servers.page.databases',
  network: 'servers.page.network',
  startup: 'servers.page.startup',
  users: 'servers.page.users',
  backups: 'servers.page.backups',
  schedules: 'servers.page.schedules',
  'schedules/:scheduleId': 'servers.page.schedule',
  settings: 'servers.page.settings',
  activity: 'servers.page.activity',
};

/** What is read of a server page (`ServerPage` in the route table, which imports this feature's pages). */
interface PageRef {
  path: string;
  label: string;
}

/** A server page's name in the user's language: for its tab, the document title and what says it is unavailable. */
export function useServerPageLabel(): (page: PageRef) => string {
  const t = useT();
  return useCallback(
    (page) => {
      const key = Object.hasOwn(PAGE_LABELS, page.path) ? PAGE_LABELS[page.path] : undefined;
      return key ? t(key) : page.label;
    },
    [t],
  );
}
