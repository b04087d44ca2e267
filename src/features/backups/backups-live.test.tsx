// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError } from '../../test/server-test-fixtures';
import { DONE, FakeWebSocket, openMenu, renderBackups, row, setUpBackupsTests, RUNNING, stubPanel } from '../../test/backups-test-support';

setUpBackupsTests();

const render = renderBackups;

describe('BackupsPage: making and restoring, and what runs', () => {
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

    expect(await within(row('Fresh')).findByText('Running')).toBeInTheDocument();
    const tray = screen.getByRole('region', { name: 'Backup operations' });
    // One progress element for the running backup, in the tray (issue 22 polish).
    expect(screen.getAllByRole('progressbar')).toEqual([within(tray).getByRole('progressbar', { name: 'Backup “Fresh”' })]);
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
    expect(await within(await screen.findByRole('listitem', { name: 'Before update' })).findByText('Running')).toBeInTheDocument();
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

  it("shows a running backup's percentage in its one progress element as the node tells it (Aerie's backup progress)", async () => {
    vi.stubGlobal('WebSocket', FakeWebSocket);
    stubPanel({ backups: [DONE, RUNNING], socket: true });
    render();
    expect(await within(await screen.findByRole('listitem', { name: 'Before update' })).findByText('Running')).toBeInTheDocument();
    await waitFor(() => expect(FakeWebSocket.last?.sent).toHaveLength(1));
    const node = FakeWebSocket.last as FakeWebSocket;
    node.frame('auth success');
    node.frame(`backup progress:${RUNNING.uuid}`, JSON.stringify({ uuid: RUNNING.uuid, progress: 0.42 }));
    const tray = screen.getByRole('region', { name: 'Backup operations' });
    const bar = () => within(tray).getByRole('progressbar', { name: 'Backup “Before update”' });
    await waitFor(() => expect(bar()).toHaveAttribute('aria-valuenow', '42'));
    expect(within(tray).getByText('Running, 42%')).toBeInTheDocument();
    expect(screen.getAllByRole('progressbar')).toHaveLength(1);
    // Out of range or malformed: ignored, the last figure stays.
    node.frame(`backup progress:${RUNNING.uuid}`, JSON.stringify({ uuid: RUNNING.uuid, progress: 7 }));
    node.frame(`backup progress:${RUNNING.uuid}`, '{not json');
    await new Promise((r) => setTimeout(r, 50));
    expect(within(tray).getByText('Running, 42%')).toBeInTheDocument();
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
    expect(within(dialog).getByRole('note')).toHaveTextContent('Needs the backup.delete permission');
    expect(within(dialog).getByRole('textbox', { name: 'Ignored files' })).toHaveValue('');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(panel.writes()).toEqual([{ method: 'POST', path: '', body: { name: null, ignored: '', is_locked: false } }]);
    expect(panel.requests.some((r) => r.path.startsWith('files/'))).toBe(false);
  });

  it('reads no .pteroignore the root does not hold, so no 404 reaches the browser console', async () => {
    const panel = stubPanel({ backups: [] });
    render();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create backup' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Create backup' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create backup' });
    await waitFor(() => expect(panel.requests).toContainEqual({ method: 'GET', path: 'files/list?directory=/', body: undefined }));
    expect(within(dialog).getByRole('textbox', { name: 'Ignored files' })).toHaveValue('');
    expect(panel.requests.some((r) => r.path.startsWith('files/contents'))).toBe(false);
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
