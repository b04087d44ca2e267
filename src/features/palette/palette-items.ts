import type { Server } from '../../contract/servers';
import type { PowerSignal } from '../../contract/websocket';
import { permits, type PermissionCheck } from '../../contract/permissions';
import { SERVER_PAGES, serverPageHref } from '../../app/server-routes';
import { intentHref } from '../../lib/use-page-intent';
import type { AppMessage } from '../../app/messages';
import type { Translate } from '../../lib/i18n/catalog';
import type { PaletteMessage } from './messages';
import { primaryAddress, serverConditions } from '../servers/api';
import type { RecentEntry } from './recent';

/*
 * What the palette offers, as plain data: a pure function of what is typed, the open server (with
 * the caller's permissions on it), the servers the list's own search found, and the recent choices.
 * Servers are not filtered here: the API's `filter[*]` already matched them (name, identifier,
 * address, port), as on the server list.
 */

export const SECTIONS = ['Recent', 'Actions', 'This server', 'Servers', 'Go to'] as const;
export type PaletteSection = (typeof SECTIONS)[number];

export interface PaletteItem {
  id: string;
  label: string;
  detail?: string;
  section: PaletteSection;
  /** A jump. */
  href?: string;
  /** A power action on the open server, through the console's power call. */
  power?: PowerSignal;
}

export interface OpenServer {
  server: Server;
  /** The id in the URL (the server's pages' links use it). */
  routeId: string;
  permissions: readonly string[];
  /** The folder the file manager shows, when it is open (a new file goes there). */
  filesPath: string | null;
}

export interface PaletteInput {
  query: string;
  /** The palette's messages, the route table's page names and the account's sections, in the language shown. */
  words: {
    t: Translate<PaletteMessage>;
    pageLabel: (page: { label: AppMessage }) => string;
    accountSections: readonly { to: string; label: string }[];
  };
  open: OpenServer | null;
  servers: readonly Server[];
  recent: readonly RecentEntry[];
  admin: boolean;
}

const POWER: { signal: PowerSignal; label: PaletteMessage; permission: PermissionCheck }[] = [
  { signal: 'start', label: 'palette.power.start', permission: 'control.start' },
  { signal: 'restart', label: 'palette.power.restart', permission: 'control.restart' },
  { signal: 'stop', label: 'palette.power.stop', permission: 'control.stop' },
];

type Words = PaletteInput['words'];

function actionsOf({ server, routeId, permissions, filesPath }: OpenServer, { t }: Words): PaletteItem[] {
  const can = (p: PermissionCheck) => permits(permissions, p);
  const items: PaletteItem[] = [];
  const id = (name: string) => `action:${server.uuid}:${name}`;
  // A suspended or installing server refuses every action: none is offered then.
  if (serverConditions(server).some((c) => c.blocking)) return items;
  for (const p of POWER)
    if (can(p.permission)) items.push({ id: id(p.signal), label: t(p.label), detail: server.name, section: 'Actions', power: p.signal });
  if (can('file.create') && can('file.read-content'))
    items.push({
      id: id('new-file'),
      label: t('palette.newFile'),
      detail: filesPath
        ? t('palette.newFile.in', { path: decodeURIComponent(filesPath.replace(/^\/server\/[^/]+\/files/, '')) || '/' })
        : server.name,
      section: 'Actions',
      href: intentHref(filesPath ?? `/server/${routeId}/files`, 'new-file'),
    });
  if (can('backup.create') && server.feature_limits.backups !== 0)
    items.push({
      id: id('backup'),
      label: t('palette.createBackup'),
      detail: server.name,
      section: 'Actions',
      href: intentHref(`/server/${routeId}/backups`, 'create-backup'),
    });
  if (can('file.sftp'))
    items.push({
      id: id('sftp'),
      label: t('palette.sftp'),
      detail: server.name,
      section: 'Actions',
      href: intentHref(`/server/${routeId}/overview`, 'sftp'),
    });
  return items;
}

function pagesOf({ server, routeId, permissions }: OpenServer, { pageLabel }: Words): PaletteItem[] {
  return SERVER_PAGES.filter((p) => p.nav && (p.permission === null || permits(permissions, p.permission))).map((p) => ({
    id: `page:${server.uuid}:${p.path}`,
    label: pageLabel(p),
    detail: server.name,
    section: 'This server',
    href: serverPageHref(routeId, p),
  }));
}

function goTo(admin: boolean, { t, accountSections }: Words): PaletteItem[] {
  return [
    { id: 'go:/', label: t('palette.serverList'), section: 'Go to', href: '/' },
    ...accountSections.map((s): PaletteItem => ({
      id: `go:${s.to}`,
      label: t('palette.account', { section: s.label }),
      section: 'Go to',
      href: s.to,
    })),
    ...(admin ? [{ id: 'go:/admin', label: t('palette.admin'), section: 'Go to', href: '/admin' } satisfies PaletteItem] : []),
  ];
}

function serverItem(server: Server): PaletteItem {
  const address = primaryAddress(server);
  return {
    id: `server:${server.uuid}`,
    label: server.name,
    detail: [server.identifier, address].filter(Boolean).join(' · '),
    section: 'Servers',
    href: `/server/${server.identifier}`,
  };
}

/** Every word typed starts a word of the item's label or detail (any case): "file" finds "New file", not "Profile". */
export function matches(query: string, item: Pick<PaletteItem, 'label' | 'detail'>): boolean {
  const words = `${item.label} ${item.detail ?? ''}`.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .every((typed) => words.some((word) => word.startsWith(typed)));
}

/** The items to show, in section order, recent ones first. */
export function paletteItems({ query, open, servers, recent, admin, words }: PaletteInput): PaletteItem[] {
  const local = [...(open ? [...actionsOf(open, words), ...pagesOf(open, words)] : []), ...goTo(admin, words)].filter((item) => matches(query, item));
  const all = [...local, ...servers.map(serverItem)];
  const recentItems: PaletteItem[] = [];
  for (const entry of recent) {
    const found = all.find((item) => item.id === entry.id);
    if (found) recentItems.push({ ...found, section: 'Recent' });
    // A jump remembered from elsewhere (a server not on the first page of results) shows from what was kept.
    else if (entry.href && !entry.id.startsWith('action:') && matches(query, entry)) recentItems.push({ ...entry, section: 'Recent' });
  }
  const taken = new Set(recentItems.map((item) => item.id));
  const order = (item: PaletteItem) => SECTIONS.indexOf(item.section);
  return [...recentItems, ...all.filter((item) => !taken.has(item.id)).sort((a, b) => order(a) - order(b))];
}
