// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderRoutes } from '../../test/render-routes';
import { AdminNodePage } from './admin-node-page';
import { AdminNodesPage } from './admin-nodes-page';
import { stubNodesPanel } from './test-panel';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const render = (path: string) =>
  renderRoutes(
    [
      { path: '/admin/nodes', element: <AdminNodesPage /> },
      { path: '/admin/nodes/:nodeId', element: <AdminNodePage /> },
    ],
    path,
  );

describe('AdminNodesPage', () => {
  it('lists each node with its health from the overview and its load from the node, linking to its page', async () => {
    stubNodesPanel();
    const { router } = render('/admin/nodes');
    const list = await screen.findByRole('list', { name: 'Nodes' });
    const far = await within(list).findByRole('listitem', { name: 'wings-1' });
    await within(far).findByText('Not reachable');
    expect(within(far).getByText('connect ECONNREFUSED')).toBeInTheDocument();
    expect(within(far).getByText('1 server')).toBeInTheDocument();
    expect(within(far).getByRole('meter', { name: 'Memory allocated' })).toHaveAttribute('aria-valuenow', '25');
    const local = within(list).getByRole('listitem', { name: 'local' });
    expect(within(local).getByText('Reachable')).toBeInTheDocument();
    expect(within(local).getByText('In this panel')).toBeInTheDocument();
    fireEvent.click(within(far).getByRole('link', { name: 'wings-1' }));
    expect(router.state.location.pathname).toBe('/admin/nodes/2');
  });

  it('lives without the overview (a Pterodactyl panel): the nodes and their load, health not checked', async () => {
    stubNodesPanel({ overview: false });
    render('/admin/nodes');
    const list = await screen.findByRole('list', { name: 'Nodes' });
    const far = within(list).getByRole('listitem', { name: 'wings-1' });
    expect(within(far).getByText('Not checked yet')).toBeInTheDocument();
    expect(within(far).queryByText(/server/)).not.toBeInTheDocument();
  });

  it('searches by name through the URL', async () => {
    stubNodesPanel();
    const { router } = render('/admin/nodes?q=wings');
    const list = await screen.findByRole('list', { name: 'Nodes' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByRole('searchbox', { name: 'Search by name' })).toHaveValue('wings');
    expect(router.state.location.search).toBe('?q=wings');
  });

  it('creates a node with the contract’s rules and opens its page', async () => {
    const panel = stubNodesPanel();
    const { router } = render('/admin/nodes');
    fireEvent.click(await screen.findByRole('button', { name: 'Create node' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create node' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create node' }));
    expect(await within(dialog).findByText('The name field is required.')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '<img src=x>' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create node' }));
    expect(await within(dialog).findByText(/^The name may hold only letters, digits, spaces, dots, dashes and underscores/)).toBeInTheDocument();
    expect(panel.writes()).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'wings-2' } });
    fireEvent.change(within(dialog).getByLabelText('FQDN'), { target: { value: 'wings-2.example.test' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create node' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/nodes/3'));
    expect(panel.writes()[0]?.body).toMatchObject({
      name: 'wings-2',
      location_id: 1,
      fqdn: 'wings-2.example.test',
      scheme: 'https',
      daemon_listen: 8080,
    });
  });
});
