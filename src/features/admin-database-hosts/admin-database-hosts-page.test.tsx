// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { DatabaseHost } from '../../contract/admin-database-hosts';
import { changeLocale } from '../../lib/i18n/runtime';
import { renderRoutes } from '../../test/render-routes';
import { json, stubFetch, type FetchCall } from '../../test/server-test-fixtures';
import { AdminDatabaseHostsPage } from './admin-database-hosts-page';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLocale('en');
});

const host: DatabaseHost = {
  id: 1,
  name: 'main',
  host: '10.0.0.5',
  port: 3306,
  username: 'panel',
  node: null,
  max_databases: 20,
  databases: 3,
  created_at: '2026-01-01T00:00:00+00:00',
  updated_at: '2026-01-01T00:00:00+00:00',
};
const refusal = (detail: string) => json(400, { errors: [{ code: 'DisplayException', status: '400', detail }] });

function stubPanel() {
  const calls: FetchCall[] = [];
  stubFetch((url, call) => {
    calls.push(call);
    if (url.pathname.endsWith('/test')) return refusal('10.0.0.5:3306 refused the username or password (panel).');
    if (url.pathname === '/api/application/nodes')
      return json(200, {
        object: 'list',
        data: [],
        meta: { pagination: { total: 0, count: 0, per_page: 100, current_page: 1, total_pages: 1, links: {} } },
      });
    if (call.method === 'POST')
      return refusal('Nothing accepts connections at db.example.com:3306: is MariaDB or MySQL running there and listening on that port?');
    const hosts = [host].filter((h) => h.name.includes(url.searchParams.get('filter[name]') ?? ''));
    return json(200, {
      object: 'list',
      data: hosts.map((h) => ({ object: 'database_host', attributes: h })),
      meta: { pagination: { total: hosts.length, count: hosts.length, per_page: 50, current_page: 1, total_pages: 1, links: {} } },
    });
  });
  return calls;
}

describe('AdminDatabaseHostsPage', () => {
  it('shows each host’s usage, says why a connection test failed, and keeps a refused new host’s form open with the reason', async () => {
    const calls = stubPanel();
    renderRoutes([{ path: '/admin/database-hosts', element: <AdminDatabaseHostsPage /> }], '/admin/database-hosts');
    const row = within(await screen.findByRole('list', { name: 'Database hosts' })).getByRole('listitem');
    expect(row).toHaveTextContent('3 of 20 databases');
    expect(row).toHaveTextContent('panel@10.0.0.5:3306');

    fireEvent.click(within(row).getByRole('button', { name: 'Test connection to main' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('main: 10.0.0.5:3306 refused the username or password (panel).');

    fireEvent.click(screen.getByRole('button', { name: 'Add database host' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add database host' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'second' } });
    fireEvent.change(within(dialog).getByLabelText('Host'), { target: { value: 'db.example.com' } });
    fireEvent.change(within(dialog).getByLabelText('Username'), { target: { value: 'admin' } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add host' }));
    expect(await within(dialog).findByText(/Nothing accepts connections at db.example.com:3306/)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path.endsWith('/database-hosts'))?.body).toEqual({
      name: 'second',
      host: 'db.example.com',
      port: 3306,
      username: 'admin',
      password: 'secret',
      max_databases: null,
      node: null,
    });
  });

  it('searches hosts by name through the URL, saying when none matches', async () => {
    const calls = stubPanel();
    const { router } = renderRoutes([{ path: '/admin/database-hosts', element: <AdminDatabaseHostsPage /> }], '/admin/database-hosts?q=backup');
    expect(await screen.findByText('No database hosts match “backup”')).toBeInTheDocument();
    expect(calls.map((c) => new URL(c.path, 'http://panel.test').searchParams.get('filter[name]'))).toContain('backup');
    const box = screen.getByRole('searchbox', { name: 'Search by name' });
    fireEvent.change(box, { target: { value: 'mai' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(router.state.location.search).toBe('?q=mai');
    expect(await screen.findByRole('list', { name: 'Database hosts' })).toHaveTextContent('main');
  });

  it('speaks Polish, with Polish plural forms, once Polish is chosen', async () => {
    stubPanel();
    await act(() => changeLocale('pl'));
    renderRoutes([{ path: '/admin/database-hosts', element: <AdminDatabaseHostsPage /> }], '/admin/database-hosts');
    const row = within(await screen.findByRole('list', { name: 'Hosty baz danych' })).getByRole('listitem');
    expect(row).toHaveTextContent('3 z 20 baz danych');
    expect(within(row).getByRole('button', { name: 'Testuj połączenie z main' })).toBeInTheDocument();
    expect(screen.queryByText(/databases/)).not.toBeInTheDocument();
  });
});
