// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import type { OverviewNode } from '../../contract/admin-overview';
import { changeLocale } from '../../lib/i18n/runtime';
import { renderRoutes } from '../../test/render-routes';
import { apiError, json, makeEntry, stubFetch } from '../../test/server-test-fixtures';
import { AdminOverviewPage } from './admin-overview-page';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLocale('en');
});

const node = (overrides: Partial<OverviewNode>): OverviewNode => ({
  id: 1,
  uuid: '00000000-0000-4000-8000-000000000001',
  name: 'local',
  local: true,
  reachable: true,
  version: '0.1.0',
  reason: null,
  last_seen: null,
  servers: 2,
  memory: { allocated: 2048, total: 4096 },
  disk: { allocated: 1024, total: 0 },
  ...overrides,
});

const overview = {
  object: 'admin_overview',
  attributes: {
    panel_version: '0.1.0',
    nodes: [
      node({}),
      node({
        id: 2,
        uuid: '00000000-0000-4000-8000-000000000002',
        name: 'node-far',
        local: false,
        reachable: false,
        version: '1.11.0',
        reason: 'connect ECONNREFUSED 10.0.0.9:8080',
        servers: 1,
      }),
    ],
    activity: [
      {
        object: 'activity_log',
        attributes: makeEntry({
          event: 'admin:user.create',
          properties: { email: 'new@example.test' },
          relationships: { actor: { object: 'user', attributes: { username: 'boss', email: 'boss@example.test' } } },
        }),
      },
    ],
  },
};

const render = () => renderRoutes([{ path: '/admin', element: <AdminOverviewPage /> }], '/admin');

describe('AdminOverviewPage', () => {
  it('shows the panel version, each node’s health and allocation, and the admin activity as sentences', async () => {
    stubFetch(() => json(200, overview));
    render();
    const nodes = await screen.findByRole('list', { name: 'Nodes' });
    const local = within(nodes).getByRole('listitem', { name: 'local' });
    expect(within(local).getByText('Reachable')).toBeInTheDocument();
    expect(within(local).getByText('2 GiB of 4 GiB')).toBeInTheDocument();
    expect(within(local).getByRole('meter', { name: 'Memory allocated' })).toHaveAttribute('aria-valuenow', '50');
    // A node that offers no disk total shows its figure and no bar.
    expect(within(local).queryByRole('meter', { name: 'Disk allocated' })).not.toBeInTheDocument();
    const far = within(nodes).getByRole('listitem', { name: 'node-far' });
    expect(within(far).getByText('Not reachable')).toBeInTheDocument();
    expect(within(far).getByText('connect ECONNREFUSED 10.0.0.9:8080')).toBeInTheDocument();
    expect(screen.getByText('1 not reachable', { exact: false })).toBeInTheDocument();
    const activity = screen.getByRole('list', { name: 'Recent admin activity' });
    expect(within(activity).getByText('Created the account new@example.test')).toBeInTheDocument();
    expect(within(activity).getByText('boss')).toBeInTheDocument();
  });

  it('shows the nodes’ health, their load and the activity in German once it is chosen', async () => {
    stubFetch(() => json(200, overview));
    render();
    const nodes = await screen.findByRole('list', { name: 'Nodes' });
    await act(() => changeLocale('de'));
    const local = within(nodes).getByRole('listitem', { name: 'local' });
    expect(within(local).getByText('Erreichbar')).toBeInTheDocument();
    expect(within(local).getByRole('meter', { name: 'Arbeitsspeicher zugewiesen' })).toBeInTheDocument();
    expect(screen.getByText('Konto new@example.test erstellt')).toBeInTheDocument();
    expect(screen.queryByText('Reachable')).toBeNull();
  });

  it('shows the API’s refusal instead of a page', async () => {
    stubFetch(() => apiError(403, 'This action is unauthorized.'));
    render();
    expect(await screen.findByRole('heading', { name: 'You do not have access to this' })).toBeInTheDocument();
  });

  it('lives without the endpoint on a panel that has none (a Pterodactyl panel answers 404)', async () => {
    stubFetch(() => apiError(404, 'The requested route could not be found.'));
    render();
    expect(await screen.findByText('No overview from this panel')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage users' })).toHaveAttribute('href', '/admin/users');
  });
});
