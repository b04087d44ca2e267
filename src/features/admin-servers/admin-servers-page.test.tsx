// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ApplicationServer } from '../../contract/admin-servers';
import { renderRoutes } from '../../test/render-routes';
import { json, stubFetch, type FetchCall } from '../../test/server-test-fixtures';
import { AdminServerPage } from './admin-server-page';
import { AdminServersPage } from './admin-servers-page';
import { CreateServerPage } from './create-server-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const attrs = (o: Record<string, unknown>) => ({ object: 'x', attributes: o });
const server = (id: number, name: string, extra: Partial<ApplicationServer> = {}): ApplicationServer => ({
  id,
  external_id: null,
  uuid: `00000000-0000-4000-8000-00000000000${id}`,
  identifier: `0000000${id}`,
  name,
  description: null,
  status: null,
  suspended: false,
  limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100, threads: null, oom_disabled: false },
  feature_limits: { databases: 0, allocations: 0, backups: 0 },
  user: 1,
  node: 1,
  allocation: 7,
  nest: 1,
  egg: 1,
  container: { startup_command: './run', image: 'ghcr.io/demo:1', installed: 1, environment: {}, skip_scripts: false },
  created_at: '2026-01-01T00:00:00+00:00',
  updated_at: '2026-01-01T00:00:00+00:00',
  relationships: {
    user: attrs({ email: 'ann@example.test', username: 'ann' }),
    node: attrs({ name: 'Local node' }),
    egg: attrs({ name: 'Demo game', docker_images: { Demo: 'ghcr.io/demo:1' } }),
    allocations: { object: 'list', data: [attrs({ id: 7, ip: '127.0.0.1', alias: null, port: 25565 })] },
    variables: {
      object: 'list',
      data: [
        attrs({ name: 'Max players', env_variable: 'MAX_PLAYERS', rules: 'required|integer|between:1,100', server_value: '10', description: '' }),
      ],
    },
  },
  ...extra,
});
const pageOf = (servers: ApplicationServer[]) => ({
  object: 'list',
  data: servers.map((s) => ({ object: 'server', attributes: s })),
  meta: { pagination: { total: servers.length, count: servers.length, per_page: 50, current_page: 1, total_pages: 1, links: {} } },
});
const refusal = (status: number, detail: string, field?: string) =>
  json(status, {
    errors: [{ code: 'ValidationException', status: String(status), detail, ...(field ? { meta: { source_field: field, rule: 'rules' } } : {}) }],
  });

function stubPanel() {
  let servers = [server(1, 'Survival'), server(2, 'Creative', { status: 'suspended', suspended: true })];
  const calls: FetchCall[] = [];
  stubFetch((url, call) => {
    calls.push(call);
    const path = url.pathname.replace('/api/application', '');
    if (path === '/servers' && call.method === 'GET') {
      const name = url.searchParams.get('filter[name]');
      return json(200, pageOf(servers.filter((s) => !name || s.name.includes(name))));
    }
    const id = Number(path.split('/')[2]);
    const found = servers.find((s) => s.id === id);
    if (path.endsWith('/transfer')) return refusal(404, 'The requested resource does not exist on this server.');
    if (path.startsWith('/users')) return json(200, pageOf([]));
    if (!found) return refusal(404, 'The requested resource does not exist on this server.');
    if (call.method === 'GET') return json(200, { object: 'server', attributes: found });
    if (path.endsWith('/suspend')) {
      servers = servers.map((s) => (s.id === id ? { ...s, status: 'suspended', suspended: true } : s));
      return new Response(null, { status: 204 });
    }
    if (path.endsWith('/startup')) return refusal(422, 'The Max players must be between 1 and 100.', 'environment.MAX_PLAYERS');
    return refusal(405, 'Method not allowed.');
  });
  return { writes: () => calls.filter((c) => c.method !== 'GET') };
}

const render = (path: string) =>
  renderRoutes(
    [
      { path: '/admin/servers', element: <AdminServersPage /> },
      { path: '/admin/servers/new', element: <CreateServerPage /> },
      { path: '/admin/servers/:serverId', element: <AdminServerPage /> },
    ],
    path,
  );

describe('AdminServersPage', () => {
  it('lists servers with owner, node, address, egg and a suspended badge, searched by name through the URL', async () => {
    stubPanel();
    const { router } = render('/admin/servers');
    const list = await screen.findByRole('list', { name: 'Servers' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getAllByText('127.0.0.1:25565')).toHaveLength(2);
    expect(within(list).getAllByText('ann@example.test')).toHaveLength(2);
    expect(within(list).getByText('Suspended')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by name' }), { target: { value: 'Creat' } });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1), { timeout: 2000 });
    expect(router.state.location.search).toBe('?q=Creat');
    fireEvent.click(within(list).getByRole('link', { name: 'Creative' }));
    expect(router.state.location.pathname).toBe('/admin/servers/2');
  });
});

describe('AdminServerPage', () => {
  it('suspends after a confirmation saying what it does, and links to the client area', async () => {
    const panel = stubPanel();
    render('/admin/servers/1');
    expect(await screen.findByRole('link', { name: 'Open in the client area →' })).toHaveAttribute('href', '/server/00000001');
    fireEvent.click(screen.getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend server' });
    expect(within(dialog).getByText(/can no longer start it/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByRole('button', { name: 'Unsuspend' })).toBeInTheDocument();
    expect(panel.writes().map((c) => c.path)).toEqual(['/api/application/servers/1/suspend']);
    // A panel without the transfer route (404) offers no transfer.
    expect(screen.queryByRole('button', { name: 'Transfer' })).not.toBeInTheDocument();
  });

  it('shows a variable’s rules, and the server’s refusal under that variable', async () => {
    stubPanel();
    render('/admin/servers/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit startup' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit startup' });
    expect(within(dialog).getByText('Rules: required|integer|between:1,100')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The Max players must be between 1 and 100.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Max players/)).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('CreateServerPage', () => {
  it('refuses an empty form with the contract’s messages before sending anything', async () => {
    const panel = stubPanel();
    render('/admin/servers/new');
    fireEvent.click(await screen.findByRole('button', { name: 'Create server' }));
    expect(await screen.findByText('The name field is required.')).toBeInTheDocument();
    expect(panel.writes()).toEqual([]);
  });
});
