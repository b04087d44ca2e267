import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, vi } from 'vitest';
import type { ActivityLog } from '../contract/activity';
import type { Backup } from '../contract/backups';
import { BackupsPage } from '../features/backups/backups-page';
import { apiError, json, makeEntry, makeServer, renderServerRoutes, serverDocument, stubResizeObserver } from './server-test-fixtures';
import { fileEntry, listDocument } from './files-test-support';

/* The backups page over a fake panel (backups, .pteroignore, activity, websocket token) for its tests. */

const SERVER = '/api/client/servers/abcd1234-5678-4abc-8def-0123456789ab';
const BASE = `${SERVER}/backups`;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

export function backup(overrides: Partial<Backup>): Backup {
  return {
    uuid: '00000000-0000-4000-8000-000000000001',
    is_successful: true,
    is_locked: false,
    name: 'Nightly',
    ignored_files: [],
    checksum: 'sha1:0123456789abcdef0123456789abcdef01234567',
    bytes: 5 * 1024 * 1024,
    created_at: minutesAgo(90),
    completed_at: minutesAgo(89),
    ...overrides,
  };
}

export const DONE = backup({});
export const RUNNING = backup({
  uuid: '00000000-0000-4000-8000-000000000002',
  name: 'Before update',
  is_successful: false,
  checksum: null,
  bytes: 0,
  completed_at: null,
});
export const FAILED = backup({ uuid: '00000000-0000-4000-8000-000000000003', name: 'Broken', is_successful: false, checksum: null, bytes: 0 });
export const LOCKED = backup({ uuid: '00000000-0000-4000-8000-000000000004', name: 'Keep forever', is_locked: true });

type Answer = (method: string, path: string, body: unknown) => Response | undefined;

/** A fake panel holding `backups`; `answer` may take any request first (a failure, a change). */
export function stubPanel({
  permissions = ['*'],
  limit = 3,
  backups = [DONE, RUNNING, FAILED, LOCKED],
  status = null,
  ignoreFile,
  socket = false,
  instant = false,
  answer,
}: {
  permissions?: string[];
  limit?: number | null;
  backups?: Backup[];
  status?: string | null;
  ignoreFile?: string;
  /** Hand out a websocket token (the test plays the node with FakeWebSocket); else 403. */
  socket?: boolean;
  /** The node finishes a new backup before the list is read again. */
  instant?: boolean;
  answer?: Answer;
} = {}) {
  let list = backups;
  const state = { status };
  const activity: ActivityLog[] = [];
  const requests: { method: string; path: string; body: unknown }[] = [];
  const item = (b: Backup | undefined) => ({ object: 'backup', attributes: b });
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (url.pathname === '/sanctum/csrf-cookie') return new Response(null, { status: 204 });
    if (url.pathname === `${SERVER}/files/list`) {
      requests.push({ method, path: `files/list?directory=${url.searchParams.get('directory')}`, body });
      return json(
        200,
        listDocument(ignoreFile === undefined ? [fileEntry('server.properties')] : [fileEntry('.pteroignore'), fileEntry('server.properties')]),
      );
    }
    if (url.pathname === `${SERVER}/files/contents`) {
      requests.push({ method, path: `files/contents?file=${url.searchParams.get('file')}`, body });
      return ignoreFile === undefined ? apiError(404, 'The requested file was not found.') : new Response(ignoreFile, { status: 200 });
    }
    if (url.pathname === `${SERVER}/websocket`) {
      return socket ? json(200, { data: { token: 'jwt', socket: 'ws://node.test/api/servers/x/ws' } }) : apiError(403, 'No console.');
    }
    if (url.pathname === `${SERVER}/activity`) {
      requests.push({ method, path: `activity?filter[event]=${url.searchParams.get('filter[event]')}`, body });
      const pagination = { total: activity.length, count: activity.length, per_page: 1, current_page: 1, total_pages: 1, links: {} };
      return json(200, { object: 'list', data: activity.map((a) => ({ object: 'activity_log', attributes: a })), meta: { pagination } });
    }
    if (!url.pathname.startsWith(BASE)) {
      const server = makeServer({ status: state.status, feature_limits: { databases: 2, allocations: null, backups: limit } });
      return json(200, serverDocument(server, { is_server_owner: permissions.includes('*'), user_permissions: permissions }));
    }
    const path = url.pathname.slice(BASE.length);
    requests.push({ method, path, body });
    if (state.status === 'restoring_backup') return apiError(409, 'This server is currently restoring from a backup, please try again later.');
    const early = answer?.(method, path, body);
    if (early) return early;
    const uuid = path.split('/')[1];
    if (method === 'GET' && path === '') {
      const data = list.map(item);
      const pagination = { total: list.length, count: list.length, per_page: 20, current_page: 1, total_pages: 1, links: {} };
      return json(200, { object: 'list', data, meta: { pagination, backup_count: list.filter((b) => b.is_successful || !b.completed_at).length } });
    }
    if (method === 'POST' && path === '') {
      const created = backup({
        uuid: '00000000-0000-4000-8000-000000000009',
        name: 'Fresh',
        is_successful: false,
        checksum: null,
        bytes: 0,
        completed_at: null,
      });
      const done = { ...created, is_successful: true, completed_at: new Date().toISOString(), bytes: 2048, checksum: 'sha1:ff' };
      list = [...list, instant ? done : created];
      return json(200, item(created));
    }
    if (path.endsWith('/lock')) {
      list = list.map((b) => (b.uuid === uuid ? { ...b, is_locked: !b.is_locked } : b));
      return json(200, item(list.find((b) => b.uuid === uuid)));
    }
    if (path.endsWith('/restore')) {
      state.status = 'restoring_backup';
      return new Response(null, { status: 204 });
    }
    if (path.endsWith('/download')) return json(200, { object: 'signed_url', attributes: { url: 'http://node.test/download/backup?token=abc' } });
    list = list.filter((b) => b.uuid !== uuid);
    return new Response(null, { status: 204 });
  });
  vi.stubGlobal('fetch', mock);
  return {
    requests,
    writes: () => requests.filter((r) => r.method !== 'GET'),
    complete: (uuid: string) =>
      (list = list.map((b) =>
        b.uuid === uuid ? { ...b, is_successful: true, completed_at: new Date().toISOString(), bytes: 2048, checksum: 'sha1:ff' } : b,
      )),
    /** The node reports the end: the status clears and the panel logs the outcome. */
    finishRestore: (event: 'server:backup.restore-complete' | 'server:backup.restore-failed') => {
      state.status = null;
      activity.unshift(makeEntry({ event, timestamp: new Date().toISOString(), properties: { name: 'Nightly' } }));
    },
  };
}

/** The browser's WebSocket as the page's socket client uses it; the test plays the node. */
export class FakeWebSocket {
  static last: FakeWebSocket | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  sent: string[] = [];
  constructor(readonly url: string) {
    FakeWebSocket.last = this;
    setTimeout(() => this.onopen?.(), 0);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {}
  frame(event: string, ...args: string[]) {
    this.onmessage?.({ data: JSON.stringify({ event, args }) });
  }
}

export const renderBackups = () => renderServerRoutes('/server/abcd1234/backups', { backups: () => <BackupsPage /> });
export const row = (name: string) => screen.getByRole('listitem', { name });
export const openMenu = async (name: string) => {
  const ue = userEvent.setup();
  await ue.click(within(await screen.findByRole('listitem', { name })).getByRole('button', { name: `Actions for ${name}` }));
  // The menu library loads on first use.
  await screen.findByRole('menu');
  return ue;
};

/** Each backups page test starts signed in, with a ResizeObserver for Radix. */
export function setUpBackupsTests() {
  beforeEach(() => {
    stubResizeObserver();
    document.cookie = 'XSRF-TOKEN=t; path=/';
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}
