// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, renderServerRoutes } from '../../test/server-test-fixtures';
import { BackupsPage } from './backups-page';
import { DONE, LOCKED, openMenu, renderBackups, row, setUpBackupsTests, stubPanel } from '../../test/backups-test-support';

setUpBackupsTests();

const render = renderBackups;

describe('BackupsPage: the list and its actions', () => {
  it('opens the create dialog when the URL asks for it (the command palette’s “Create backup”), and not at the limit', async () => {
    stubPanel({ backups: [DONE] });
    const { router } = renderServerRoutes('/server/abcd1234/backups?open=create-backup', { backups: () => <BackupsPage /> });
    expect(await screen.findByRole('dialog', { name: 'Create backup' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));

    cleanup();
    stubPanel();
    renderServerRoutes('/server/abcd1234/backups?open=create-backup', { backups: () => <BackupsPage /> });
    await screen.findByRole('list', { name: 'Backups' });
    expect(screen.getByRole('button', { name: 'Create backup' })).toBeDisabled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
  it('shows each backup with its state: size, checksum and time when done, Running, Failed, Locked', async () => {
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

    expect(within(row('Before update')).getByText('Running')).toBeInTheDocument();
    // Its progress is shown once, in the operations tray, not in the row as well (issue 22 polish).
    expect(screen.getAllByRole('progressbar')).toHaveLength(1);
    expect(within(screen.getByRole('region', { name: 'Backup operations' })).getByRole('progressbar')).toHaveAccessibleName('Backup “Before update”');
    expect(within(row('Before update')).queryByRole('status')).toBeNull();
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
  it('says the throttle before the dialog opens while the counter is under the limit, and turns Create on when it opens (issue 22 polish)', async () => {
    const availableAt = new Date(Date.now() + 1500).toISOString();
    const pagination = { total: 1, count: 1, per_page: 20, current_page: 1, total_pages: 1, links: {} };
    const meta = { pagination, backup_count: 1, backup_throttle: { limit: 2, period: 600, available_at: availableAt } };
    stubPanel({
      backups: [DONE],
      answer: (method, path) =>
        method === 'GET' && path === '' ? json(200, { object: 'list', data: [{ object: 'backup', attributes: DONE }], meta }) : undefined,
    });
    render();
    await screen.findByRole('list', { name: 'Backups' });
    expect(screen.getByText('1 of 3 used')).toBeInTheDocument();
    const create = screen.getByRole('button', { name: 'Create backup' });
    expect(create).toBeDisabled();
    expect(screen.getByText(/^Only 2 backups may be started within 10 minutes: the next one can start at \d\d:\d\d:\d\d/)).toBeInTheDocument();
    await waitFor(() => expect(create).toBeEnabled(), { timeout: 3000 });
    expect(screen.queryByText(/^Only 2 backups/)).toBeNull();
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
    expect(screen.getByRole('note')).toHaveTextContent('Needs backup.create, backup.download, backup.restore and backup.delete permissions');
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
});
