// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActivityLog } from '../../contract/activity';
import type { Backup } from '../../contract/backups';
import { apiError, json, makeEntry, makeServer, renderServerRoutes, serverDocument } from '../../test/server-test-fixtures';
import { BackupsPage } from './backups-page';

beforeEach(() => {
  // Radix measures its popper; jsdom has no ResizeObserver.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  document.cookie = 'XSRF-TOKEN=t; path=/';
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SERVER = '/api/client/servers/abcd1234-5678-4abc-8def-0123456789ab';
const BASE = `${SERVER}/backups`;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function backup(overrides: Partial<Backup>): Backup {
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

const DONE = backup({});
const RUNNING = backup({
  uuid: '00000000-0000-4000-8000-000000000002',
  name: 'Before update',
  is_successful: false,
  checksum: null,
  bytes: 0,
  completed_at: null,
});
const FAILED = backup({ uuid: '00000000-0000-4000-8000-000000000003', name: 'Broken', is_successful: false, checksum: null, bytes: 0 });
const LOCKED = backup({ uuid: '00000000-0000-4000-8000-000000000004', name: 'Keep forever', is_locked: true });

type Answer = (method: string, path: string, body: unknown) => Response | undefined;

/** A fake panel holding `backups`; `answer` may take any request first (a failure, a change). */
function stubPanel({
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
class FakeWebSocket {
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

const render = () => renderServerRoutes('/server/abcd1234/backups', { backups: () => <BackupsPage /> });
const row = (name: string) => screen.getByRole('listitem', { name });
const openMenu = async (name: string) => {
  const ue = userEvent.setup();
  await ue.click(within(await screen.findByRole('listitem', { name })).getByRole('button', { name: `Actions for ${name}` }));
  return ue;
};

describe('BackupsPage', () => {
  it('shows each backup with its state: size, checksum and time when done, a spinner while running, Failed, Locked', async () => {
    stubPanel();
    render();
    await screen.findByRole('list', { name: 'Backups' });
    const done = row('Nightly');
    expect(within(done).getByText('5 MiB')).toBeInTheDocument();
    expect(within(done).getByRole('button', { name: `Copy checksum: ${DONE.checksum}` })).toBeInTheDocument();
    const time = within(done).getByText('2 hours ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('title');
    expect(time.getAttribute('title')).not.toBe('');

    expect(within(row('Before update')).getByRole('status')).toHaveTextContent('Backing up…');
    expect(within(row('Before update')).queryByText('Failed')).toBeNull();
    expect(within(row('Broken')).getByText('Failed')).toBeInTheDocument();
    expect(within(row('Broken')).queryByRole('button', { name: /^Copy checksum/ })).toBeNull();
    expect(within(row('Keep forever')).getByText('Locked')).toBeInTheDocument();
    expect(within(row('Nightly')).queryByText('Locked')).toBeNull();
    // The failed one does not count.
    expect(screen.getByText('3 of 3 used')).toBeInTheDocument();
  });

  it('says why a backup cannot be made at the limit, and when backups are disabled', async () => {
    stubPanel();
    render();
    await screen.findByRole('list', { name: 'Backups' });
    expect(screen.getByRole('button', { name: 'Create backup' })).toBeDisabled();
    expect(screen.getByText('This server has reached its limit of 3 backups. Delete one to make room.')).toBeInTheDocument();

    cleanup();
    stubPanel({ limit: 0, backups: [] });
    render();
    expect(await screen.findByText('Backups are disabled for this server.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create backup' })).toBeDisabled();
    expect(screen.getByText('No backups yet')).toBeInTheDocument();
  });

  it('explains backups when there are none', async () => {
    stubPanel({ backups: [] });
    render();
    expect(await screen.findByText('No backups yet')).toBeInTheDocument();
    expect(screen.getByText(/an archive of every file of this server/)).toHaveTextContent('Use “Create backup” to make the first one.');
    expect(screen.getByText('0 of 3 used')).toBeInTheDocument();
  });

  it('shows a subuser with backup.read alone the list and no action', async () => {
    stubPanel({ permissions: ['backup.read'] });
    render();
    await screen.findByRole('list', { name: 'Backups' });
    expect(within(row('Nightly')).getByText('5 MiB')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create backup' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Actions for/ })).toBeNull();
  });

  it('offers only the actions the permissions allow', async () => {
    stubPanel({ permissions: ['backup.read', 'backup.download'] });
    render();
    await openMenu('Nightly');
    expect(screen.getAllByRole('menuitem').map((i) => i.getAttribute('aria-label'))).toEqual(['Download']);
  });

  it('keeps Delete off for a locked, completed backup and says why; unlocking turns it on', async () => {
    const panel = stubPanel();
    render();
    let ue = await openMenu('Keep forever');
    const remove = screen.getByRole('menuitem', { name: 'Delete' });
    expect(remove).toHaveAttribute('data-disabled');
    expect(remove).toHaveAccessibleDescription('Locked backups cannot be deleted. Unlock it first.');
    await ue.click(screen.getByRole('menuitem', { name: 'Unlock' }));
    await waitFor(() => expect(within(row('Keep forever')).queryByText('Locked')).toBeNull());
    expect(panel.writes()).toEqual([{ method: 'POST', path: `/${LOCKED.uuid}/lock`, body: undefined }]);

    ue = await openMenu('Keep forever');
    expect(screen.getByRole('menuitem', { name: 'Delete' })).not.toHaveAttribute('data-disabled');
    await ue.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('“Keep forever” is deleted from the node');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Keep forever' })).toBeNull());
    expect(panel.writes().at(-1)).toEqual({ method: 'DELETE', path: `/${LOCKED.uuid}`, body: undefined });
  });

  it('offers no download or restore of a running or failed backup, saying why', async () => {
    stubPanel();
    render();
    await openMenu('Broken');
    expect(screen.getByRole('menuitem', { name: 'Restore' })).toHaveAccessibleDescription('The backup failed; there is no archive.');
    expect(screen.getByRole('menuitem', { name: 'Download' })).toHaveAttribute('data-disabled');
  });

  it('downloads through the node link the panel signs', async () => {
    const panel = stubPanel();
    const followed: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      followed.push(this.href);
    });
    render();
    const ue = await openMenu('Nightly');
    await ue.click(screen.getByRole('menuitem', { name: 'Download' }));
    await waitFor(() => expect(followed).toEqual(['http://node.test/download/backup?token=abc']));
    expect(panel.requests.at(-1)).toEqual({ method: 'GET', path: `/${DONE.uuid}/download`, body: undefined });
  });

  it('restores only once the name is typed, says what happens, and wipes when asked', async () => {
    const panel = stubPanel();
    render();
    const ue = await openMenu('Nightly');
    await ue.click(screen.getByRole('menuitem', { name: 'Restore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore backup' });
    expect(dialog).toHaveTextContent(
      'The server is stopped, then the files of “Nightly” are written over its files. Files not in the backup stay as they are.',
    );
    const confirm = within(dialog).getByRole('button', { name: 'Restore' });
    expect(confirm).toBeDisabled();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Delete all files first/ }));
    expect(dialog).toHaveTextContent('every one of its files is deleted');
    const input = within(dialog).getByRole('textbox', { name: 'Type Nightly to confirm' });
    fireEvent.change(input, { target: { value: 'nightly' } });
    expect(confirm).toBeDisabled();
    fireEvent.change(input, { target: { value: 'Nightly' } });
    expect(confirm).toBeEnabled();
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(panel.writes()).toEqual([{ method: 'POST', path: `/${DONE.uuid}/restore`, body: { truncate: true } }]);
    const tray = await screen.findByRole('region', { name: 'Backup operations' });
    expect(within(tray).getByText(/Restore of “Nightly”/)).toBeInTheDocument();
    expect(within(tray).getByText('Restoring')).toBeInTheDocument();

    // The node reports the end: the status clears, the tray says so and the list is read again.
    const listReads = () => panel.requests.filter((r) => r.method === 'GET' && r.path === '').length;
    const before = listReads();
    panel.finishRestore('server:backup.restore-complete');
    expect(await within(tray).findByText('Restored', undefined, { timeout: 6000 })).toBeInTheDocument();
    expect(panel.requests).toContainEqual({ method: 'GET', path: 'activity?filter[event]=server:backup.restore-', body: undefined });
    await waitFor(() => expect(listReads()).toBeGreaterThan(before));
  }, 10_000);

  it('creates a backup with the .pteroignore filled in, then shows it running until it completes', async () => {
    const panel = stubPanel({ backups: [DONE], ignoreFile: 'logs/\n*.tmp\n' });
    render();
    await screen.findByRole('heading', { name: 'Backups' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create backup' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Create backup' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create backup' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Ignored files' })).toHaveValue('logs/\n*.tmp\n'));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Fresh' } });
    fireEvent.click(within(dialog).getByRole('switch', { name: /Lock/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(panel.writes()).toEqual([{ method: 'POST', path: '', body: { name: 'Fresh', ignored: 'logs/\n*.tmp\n', is_locked: true } }]);
    expect(panel.requests).toContainEqual({ method: 'GET', path: 'files/contents?file=/.pteroignore', body: undefined });

    expect(await within(row('Fresh')).findByText('Backing up…')).toBeInTheDocument();
    const tray = screen.getByRole('region', { name: 'Backup operations' });
    expect(within(tray).getByText('Running')).toBeInTheDocument();
    panel.complete('00000000-0000-4000-8000-000000000009');
    expect(await within(tray).findByText('Completed', undefined, { timeout: 6000 })).toBeInTheDocument();
    expect(within(row('Fresh')).getByText('2 KiB')).toBeInTheDocument();
    fireEvent.click(within(tray).getByRole('button', { name: 'Dismiss Backup “Fresh”' }));
    expect(screen.queryByRole('region', { name: 'Backup operations' })).toBeNull();
  }, 10_000);

  it('refreshes at once when the websocket says a backup completed, without asking for the console history', async () => {
    vi.stubGlobal('WebSocket', FakeWebSocket);
    const panel = stubPanel({ backups: [DONE, RUNNING], socket: true });
    render();
    expect(await within(await screen.findByRole('listitem', { name: 'Before update' })).findByText('Backing up…')).toBeInTheDocument();
    await waitFor(() => expect(FakeWebSocket.last?.sent).toEqual([JSON.stringify({ event: 'auth', args: ['jwt'] })]));
    const node = FakeWebSocket.last as FakeWebSocket;
    node.frame('auth success');
    panel.complete(RUNNING.uuid);
    node.frame(
      `backup completed:${RUNNING.uuid}`,
      JSON.stringify({ uuid: RUNNING.uuid, is_successful: true, checksum: 'ff', checksum_type: 'sha1', file_size: 2048 }),
    );
    // Well before the 3 s poll.
    expect(await within(row('Before update')).findByText('2 KiB', undefined, { timeout: 1000 })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Backup operations' })).getByText('Completed')).toBeInTheDocument();
    expect(node.sent).toHaveLength(1);
  });

  it('shows the result of a backup made here even when it was done before the list showed it running', async () => {
    stubPanel({ backups: [DONE], instant: true });
    render();
    await screen.findByRole('list', { name: 'Backups' });
    fireEvent.click(screen.getByRole('button', { name: 'Create backup' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Create backup' })).getByRole('button', { name: 'Create' }));
    expect(await within(await screen.findByRole('listitem', { name: 'Fresh' })).findByText('2 KiB')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Backup operations' })).getByText('Completed')).toBeInTheDocument();
  });

  it('hides the lock from those who may not delete, and skips .pteroignore without file.read-content', async () => {
    const panel = stubPanel({ permissions: ['backup.read', 'backup.create'], backups: [] });
    render();
    await screen.findByRole('heading', { name: 'Backups' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create backup' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Create backup' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create backup' });
    expect(within(dialog).queryByRole('switch')).toBeNull();
    expect(within(dialog).getByRole('textbox', { name: 'Ignored files' })).toHaveValue('');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(panel.writes()).toEqual([{ method: 'POST', path: '', body: { name: null, ignored: '', is_locked: false } }]);
    expect(panel.requests.some((r) => r.path.startsWith('files/'))).toBe(false);
  });

  it('says when to try again after the throttle, and shows the limit refusal as it is', async () => {
    let refusal = () =>
      new Response(
        JSON.stringify({
          errors: [
            { code: 'TooManyRequestsHttpException', status: '429', detail: 'Only 2 backups may be generated within a 600 second span of time.' },
          ],
        }),
        {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '400' },
        },
      );
    stubPanel({ backups: [], answer: (method, path) => (method === 'POST' && path === '' ? refusal() : undefined) });
    render();
    await screen.findByRole('heading', { name: 'Backups' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create backup' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Create backup' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create backup' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only 2 backups may be generated within a 600 second span of time. Try again in 7 minutes.',
    );

    refusal = () => apiError(400, 'Cannot create a new backup, this server has reached its limit of 3 backups.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create backup' }));
    dialog = await screen.findByRole('dialog', { name: 'Create backup' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Cannot create a new backup, this server has reached its limit of 3 backups.');
  });

  it('says a restore failed when the activity log says so', async () => {
    const panel = stubPanel({ status: 'restoring_backup', backups: [DONE] });
    render();
    const tray = await screen.findByRole('region', { name: 'Backup operations' });
    expect(tray).toHaveTextContent('Restore of a backup');
    panel.finishRestore('server:backup.restore-failed');
    expect(await within(tray).findByRole('alert', undefined, { timeout: 6000 })).toHaveTextContent(
      'Restore of a backup: The restore failed; the console says why.',
    );
    fireEvent.click(within(tray).getByRole('button', { name: 'Dismiss Restore of a backup' }));
    expect(screen.queryByRole('region', { name: 'Backup operations' })).toBeNull();
  }, 10_000);

  it('while a restore runs, says so instead of the list (the panel answers 409) and offers no create', async () => {
    const panel = stubPanel({ status: 'restoring_backup' });
    render();
    expect(await screen.findByText('A backup is being restored')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Backup operations' })).toHaveTextContent('Restore of a backup');
    expect(panel.requests.filter((r) => r.path === '')).toEqual([]);
  });
});
