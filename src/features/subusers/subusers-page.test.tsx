// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Subuser } from '../../contract/subusers';
import { changeLocale } from '../../lib/i18n/runtime';
import { json, makeServer, renderServerRoutes, serverDocument, stubFetch, testAccount, type FetchCall } from '../../test/server-test-fixtures';
import { SubusersPage } from './subusers-page';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLocale('en');
});

const BASE = '/api/client/servers/abcd1234-5678-4abc-8def-0123456789ab/users';

const subuser = (n: number, email: string, permissions: string[], twoFactor = false): Subuser => ({
  uuid: `0000000${n}-0000-4000-8000-000000000000`,
  username: email.split('@')[0] ?? email,
  email,
  image: 'https://gravatar.com/avatar/x',
  '2fa_enabled': twoFactor,
  created_at: '2026-01-01T00:00:00+00:00',
  permissions,
});

const catalogue = {
  object: 'system_permissions',
  attributes: {
    permissions: {
      control: {
        description: 'Control the server.',
        keys: { console: 'Send commands to the console.', start: 'Start it.', stop: 'Stop it.', restart: 'Restart it.' },
      },
      file: { description: 'Work with files.', keys: { read: 'List files and folders.', 'read-content': 'Open files.' } },
    },
  },
};

/** A fake panel with two subusers (one of them the signed-in account when `self`). */
function stubPanel({ permissions = ['*'], self = false, created }: { permissions?: string[]; self?: boolean; created?: unknown } = {}) {
  let users = [
    subuser(1, 'alex@example.test', ['websocket.connect', 'control.console', 'file.read'], true),
    subuser(2, self ? testAccount.email : 'sam.with.a.very.long.address@example.test', ['websocket.connect', 'user.read', 'user.create']),
  ];
  const server = serverDocument(makeServer({ server_owner: permissions.includes('*') }), {
    is_server_owner: permissions.includes('*'),
    user_permissions: permissions,
  });
  const requests: FetchCall[] = [];
  stubFetch((url, { method, body }) => {
    if (url.pathname === '/api/client/permissions') return json(200, catalogue);
    if (!url.pathname.startsWith(BASE)) return json(200, server);
    const path = url.pathname.slice(BASE.length);
    requests.push({ method, path, body });
    if (method === 'GET') return json(200, { object: 'list', data: users.map((attributes) => ({ object: 'server_subuser', attributes })) });
    if (method === 'POST' && path === '') {
      const b = body as { email: string; permissions: string[] };
      const user = subuser(3, b.email, ['websocket.connect', ...b.permissions]);
      users = [...users, user];
      return json(200, created ?? { object: 'server_subuser', attributes: user });
    }
    if (method === 'POST') return json(200, { object: 'server_subuser', attributes: users[0] });
    users = users.filter((u) => !path.endsWith(u.uuid));
    return new Response(null, { status: 204 });
  });
  return { writes: () => requests.filter((r) => r.method !== 'GET') };
}

const render = (account = testAccount) => renderServerRoutes('/server/abcd1234/users', { users: () => <SubusersPage /> }, account);
const box = (dialog: HTMLElement, name: string) => within(dialog).getByRole('checkbox', { name });

async function openEdit(email = 'alex@example.test', action = 'Edit') {
  fireEvent.click(within(await screen.findByRole('listitem', { name: email })).getByRole('button', { name: `${action} permissions of ${email}` }));
  return screen.findByRole('dialog');
}

describe('SubusersPage', () => {
  it('lists users with username, e-mail, two-factor and the permission count without websocket.connect', async () => {
    stubPanel();
    render();
    const alex = await screen.findByRole('listitem', { name: 'alex@example.test' });
    expect(alex).toHaveTextContent('alex');
    expect(alex).toHaveTextContent('Two-factor on');
    expect(alex).toHaveTextContent('2 permissions');
    expect(within(alex).queryByRole('img')).toBeNull();
    expect(screen.getByRole('listitem', { name: 'sam.with.a.very.long.address@example.test' })).toHaveTextContent('Two-factor off');
    expect(document.querySelector('img')).toBeNull();
  });

  it('says which row is you and offers no edit or delete on it', async () => {
    stubPanel({ self: true });
    render();
    const me = await screen.findByRole('listitem', { name: testAccount.email });
    expect(me).toHaveTextContent('You');
    expect(within(me).queryByRole('button')).toBeNull();
    expect(within(screen.getByRole('listitem', { name: 'alex@example.test' })).getByRole('button', { name: /^Edit/ })).toBeInTheDocument();
  });

  it('disables the permissions the editor lacks and says why', async () => {
    stubPanel({ permissions: ['websocket.connect', 'user.read', 'user.update', 'control.console', 'file.read'] });
    render();
    const dialog = await openEdit();
    expect(box(dialog, 'control.console')).toBeEnabled();
    expect(box(dialog, 'control.start')).toBeDisabled();
    expect(box(dialog, 'control.start')).toHaveAccessibleDescription(/You don't have this permission, so you can't grant it/);
    await waitFor(() => expect(box(dialog, 'file.read')).toHaveAccessibleDescription('List files and folders.'));
    expect(screen.queryByRole('checkbox', { name: 'websocket.connect' })).toBeNull();
  });

  it('shows a read-only view without user.update', async () => {
    stubPanel({ permissions: ['user.read'] });
    render();
    await screen.findByRole('list', { name: 'Users' });
    expect(screen.getByRole('button', { name: 'Add user' })).toBeDisabled();
    // Explained, not just disabled: the button points at the line naming what is missing.
    expect(screen.getByRole('button', { name: 'Add user' })).toHaveAccessibleDescription(/user\.create.*user\.update.*user\.delete/);
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
    const dialog = await openEdit('alex@example.test', 'View');
    expect(box(dialog, 'control.console')).toBeChecked();
    expect(
      within(dialog)
        .getAllByRole('checkbox')
        .every((b) => (b as HTMLInputElement).disabled),
    ).toBe(true);
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('fills the boxes from a preset, leaving out (and naming) what the editor cannot grant; Save only after a change', async () => {
    const panel = stubPanel({ permissions: ['user.read', 'user.update', 'control.console', 'control.start', 'file.read'] });
    render();
    const dialog = await openEdit();
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Moderator' }));
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      "left out what you can't grant yourself: control.stop, control.restart, file.read-content",
    );
    expect(box(dialog, 'control.start')).toBeChecked();
    expect(box(dialog, 'control.stop')).not.toBeChecked();
    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(panel.writes()).toEqual([
      { method: 'POST', path: '/00000001-0000-4000-8000-000000000000', body: { permissions: ['control.console', 'control.start', 'file.read'] } },
    ]);
  });

  it('selects a whole group, indeterminate when partly chosen, and everything with select all', async () => {
    stubPanel();
    render();
    const dialog = await openEdit();
    const control = box(dialog, 'All control') as HTMLInputElement;
    expect(control.indeterminate).toBe(true);
    fireEvent.click(control);
    for (const p of ['control.console', 'control.start', 'control.stop', 'control.restart']) expect(box(dialog, p)).toBeChecked();
    expect(control.indeterminate).toBe(false);
    fireEvent.click(box(dialog, 'Select all'));
    expect(
      within(dialog)
        .getAllByRole('checkbox')
        .every((b) => (b as HTMLInputElement).checked),
    ).toBe(true);
  });

  it('adds a user with the chosen permissions and says a mail went to a new address (never a link for the inviter)', async () => {
    const panel = stubPanel({
      created: {
        object: 'server_subuser',
        attributes: subuser(3, 'new@example.test', ['websocket.connect', 'file.read']),
      },
    });
    render();
    await screen.findByRole('list', { name: 'Users' });
    fireEvent.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add user' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'E-mail' }), { target: { value: 'new@example.test' } });
    fireEvent.click(box(dialog, 'file.read'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add user' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(panel.writes()).toEqual([{ method: 'POST', path: '', body: { email: 'new@example.test', permissions: ['file.read'] } }]);
    expect(screen.getByRole('status')).toHaveTextContent(
      'new@example.test was added. If they had no account yet, a mail was sent to them to set a password.',
    );
    expect(screen.queryByRole('button', { name: /Copy link/ })).toBeNull();
  });

  it('asks before deleting, naming the user and saying they lose access at once', async () => {
    const panel = stubPanel();
    render();
    fireEvent.click(
      within(await screen.findByRole('listitem', { name: 'alex@example.test' })).getByRole('button', { name: 'Delete alex@example.test' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    expect(dialog).toHaveTextContent('alex@example.test is removed from this server and loses access at once');
    expect(panel.writes()).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'alex@example.test' })).toBeNull());
    expect(panel.writes()).toEqual([{ method: 'DELETE', path: '/00000001-0000-4000-8000-000000000000', body: undefined }]);
  });
});

describe('PermissionEditor descriptions', () => {
  it('reads in English as the panel says, group and permission', async () => {
    stubPanel();
    render();
    const dialog = await openEdit();
    await waitFor(() => expect(box(dialog, 'control.console')).toHaveAccessibleDescription('Send commands to the console.'));
    expect(dialog).toHaveTextContent('Work with files.');
    expect(dialog).not.toHaveTextContent('Work with the files of this server.');
  });

  it("reads in German to a German account, without the panel's English", async () => {
    stubPanel();
    render({ ...testAccount, language: 'de' });
    const alex = await screen.findByRole('listitem', { name: 'alex@example.test' });
    fireEvent.click(await within(alex).findByRole('button', { name: 'Berechtigungen von alex@example.test bearbeiten' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(box(dialog, 'file.read')).toHaveAccessibleDescription('Dateien und Ordner auflisten.'));
    expect(box(dialog, 'control.console')).toHaveAccessibleDescription('Befehle an die Serverkonsole senden.');
    expect(dialog).toHaveTextContent('Mit den Dateien dieses Servers arbeiten.');
    expect(dialog).not.toHaveTextContent(/Work with|List files|Send commands/);
  });
});
