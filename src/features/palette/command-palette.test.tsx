// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRoutes } from '../../test/render-routes';
import type { Server } from '../../contract/servers';
import { RequireAuth } from '../../app/require-auth';
import { accountQueries } from '../account/api';
import { json, makeServer, serverDocument, stubFetch, testAccount, type FetchCall } from '../../test/server-test-fixtures';
import { PaletteHost } from './palette-host';
import { pushRecent } from './recent';

const survival = makeServer({ feature_limits: { databases: 2, allocations: null, backups: 3 } });
const creative = makeServer({ identifier: 'ffff0000', uuid: 'ffff0000-5678-4abc-8def-0123456789ab', name: 'Creative' });

function listDocument(servers: Server[]) {
  return {
    object: 'list',
    data: servers.map((attributes) => ({ object: 'server', attributes })),
    meta: { pagination: { total: servers.length, count: servers.length, per_page: 8, current_page: 1, total_pages: 1, links: {} } },
  };
}

/** The panel as the palette sees it: the server list searches by name (as `filter[*]` does), one server's detail, power. */
function stubPanel(permissions: string[] | '*', calls: FetchCall[] = []) {
  stubFetch((url, call) => {
    calls.push(call);
    if (url.pathname === '/api/client') {
      const q = (url.searchParams.get('filter[*]') ?? '').toLowerCase();
      return json(200, listDocument([survival, creative].filter((s) => s.name.toLowerCase().includes(q))));
    }
    if (url.pathname === `/api/client/servers/${survival.identifier}`)
      return json(
        200,
        serverDocument(
          survival,
          permissions === '*' ? { is_server_owner: true, user_permissions: ['*'] } : { is_server_owner: false, user_permissions: permissions },
        ),
      );
    if (url.pathname.endsWith('/power')) return new Response(null, { status: 204 });
    return json(404, { errors: [] });
  });
  return calls;
}

function renderAt(path: string, account = testAccount) {
  return renderRoutes(
    [
      {
        element: <RequireAuth />,
        children: [
          {
            path: '*',
            element: (
              <>
                <PaletteHost />
                <button type="button">Somewhere on the page</button>
              </>
            ),
          },
        ],
      },
    ],
    path,
    (client) => client.setQueryData(accountQueries.me().queryKey, account),
  );
}

async function openPalette() {
  fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
  const dialog = await screen.findByRole('dialog', { name: 'Command palette' });
  return { dialog, input: within(dialog).getByRole('combobox', { name: 'Search or jump to' }) };
}

const optionNames = () => screen.getAllByRole('option').map((o) => o.textContent);

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CommandPalette', () => {
  it('finds a server through the server list’s search and opens it with Enter', async () => {
    const calls = stubPanel('*');
    const { router } = renderAt('/');
    const before = screen.getByRole('button', { name: 'Somewhere on the page' });
    before.focus();
    const { input } = await openPalette();
    expect(input).toHaveFocus();
    await userEvent.type(input, 'crea');
    await waitFor(() => expect(optionNames()[0]).toContain('Creative'));
    expect(optionNames().some((n) => n?.includes('Survival'))).toBe(false);
    expect(calls.some((c) => c.path.includes('filter%5B*%5D=crea'))).toBe(true);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/server/ffff0000'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('searches every server on the panel for a root admin, and their own servers for everyone else', async () => {
    for (const admin of [true, false]) {
      const calls = stubPanel('*');
      renderAt('/', { ...testAccount, admin });
      const { input } = await openPalette();
      await userEvent.type(input, 'crea');
      await waitFor(() => expect(optionNames()[0]).toContain('Creative'));
      const searched = calls.filter((c) => c.path.includes('filter%5B*%5D=crea'));
      expect(searched.length).toBeGreaterThan(0);
      expect(searched.every((c) => c.path.includes('type=admin-all'))).toBe(admin);
      cleanup();
    }
  });

  it('closes on Escape and gives focus back to what had it', async () => {
    stubPanel('*');
    renderAt('/');
    const before = screen.getByRole('button', { name: 'Somewhere on the page' });
    before.focus();
    await openPalette();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(before).toHaveFocus();
  });

  it('moves through the results with the arrows, Home and End, wrapping at the ends', async () => {
    stubPanel('*');
    renderAt('/');
    const { input } = await openPalette();
    await waitFor(() => expect(optionNames().some((n) => n?.includes('Creative'))).toBe(true));
    const options = () => screen.getAllByRole('option');
    const active = () => document.getElementById(input.getAttribute('aria-activedescendant') ?? '');
    expect(active()).toBe(options()[0]);
    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowDown}');
    expect(active()).toBe(options()[1]);
    await userEvent.keyboard('{End}');
    expect(active()).toBe(options().at(-1));
    await userEvent.keyboard('{ArrowDown}');
    expect(active()).toBe(options()[0]);
    await userEvent.keyboard('{ArrowUp}');
    expect(active()).toBe(options().at(-1));
    await userEvent.keyboard('{Home}');
    expect(active()).toBe(options()[0]);
    expect(input).toHaveAttribute('aria-controls', screen.getByRole('listbox', { name: 'Results' }).id);
  });

  it('restarts the open server through the power call when its owner types "restart"', async () => {
    const calls = stubPanel('*');
    renderAt(`/server/${survival.identifier}/files`);
    const { input } = await openPalette();
    await userEvent.type(input, 'restart');
    await waitFor(() => expect(optionNames()).toEqual([expect.stringContaining('Restart server')]));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toEqual(expect.objectContaining({ body: { signal: 'restart' } })));
    expect(calls.find((c) => c.method === 'POST')?.path).toBe(`/api/client/servers/${survival.uuid}/power`);
  });

  it('offers a subuser only the actions and pages their permissions allow', async () => {
    stubPanel(['control.start', 'file.read', 'websocket.connect']);
    renderAt(`/server/${survival.identifier}`);
    const { input } = await openPalette();
    await waitFor(() => expect(optionNames().some((n) => n?.includes('Start server'))).toBe(true));
    const names = optionNames().join('\n');
    expect(names).toContain('Files');
    for (const missing of ['Restart server', 'Stop server', 'New file', 'Create backup', 'SFTP details', 'Backups', 'Settings', 'Activity'])
      expect(names).not.toContain(`${missing}Survival`);
    await userEvent.type(input, 'restart');
    await waitFor(() => expect(screen.getByText('Nothing matches “restart”')).toBeInTheDocument());
  });

  it('offers the owner new file, create backup and SFTP details as links to the pages that open them', async () => {
    stubPanel('*');
    const { router } = renderAt(`/server/${survival.identifier}/files/plugins`);
    const { input } = await openPalette();
    await userEvent.type(input, 'new file');
    await waitFor(() => expect(optionNames()).toEqual([expect.stringContaining('New file')]));
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(`/server/${survival.identifier}/files/plugins?open=new-file`),
    );
    await openPalette();
    await userEvent.type(screen.getByRole('combobox'), 'sftp');
    await waitFor(() => expect(optionNames()).toEqual([expect.stringContaining('SFTP details')]));
    await userEvent.clear(screen.getByRole('combobox'));
    await userEvent.type(screen.getByRole('combobox'), 'backup');
    await waitFor(() => expect(optionNames()).toEqual(['Create backupSurvival', 'BackupsSurvival']));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?open=create-backup'));
    expect(router.state.location.pathname).toBe(`/server/${survival.identifier}/backups`);
  });

  it('shows the recent choices first, from this account’s own list', async () => {
    stubPanel('*');
    pushRecent(testAccount.id, { id: 'go:/account/ssh-keys', label: 'Account: SSH keys', href: '/account/ssh-keys' });
    pushRecent(testAccount.id + 1, { id: 'go:/account/password', label: 'Account: Password', href: '/account/password' });
    renderAt('/');
    await openPalette();
    await waitFor(() => expect(optionNames().some((n) => n?.includes('Creative'))).toBe(true));
    expect(optionNames()[0]).toBe('Account: SSH keys');
    expect(screen.getByText('Recent')).toBeInTheDocument();
    expect(optionNames().filter((n) => n === 'Account: SSH keys')).toHaveLength(1);
    // Choosing another makes it the first next time.
    await userEvent.type(screen.getByRole('combobox'), 'creative');
    await waitFor(() => expect(optionNames()).toEqual([expect.stringContaining('Creative')]));
    await userEvent.keyboard('{Enter}');
    await openPalette();
    await waitFor(() => expect(optionNames()[0]).toContain('Creative'));
    expect(optionNames()[1]).toBe('Account: SSH keys');
  });
});
