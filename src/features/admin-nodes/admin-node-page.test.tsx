// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { nodeConfigYaml } from '../../contract/node-config-yaml';
import { renderRoutes } from '../../test/render-routes';
import { AdminNodePage } from './admin-node-page';
import { CONFIGURATION, stubNodesPanel } from './test-panel';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const render = (path: string) =>
  renderRoutes(
    [
      { path: '/admin/nodes', element: <p>All nodes</p> },
      { path: '/admin/nodes/:nodeId', element: <AdminNodePage /> },
    ],
    path,
  );

describe('AdminNodePage', () => {
  it('shows the node’s config.yml as the CLI prints it, and the command that starts Aerie’s node', async () => {
    stubNodesPanel();
    render('/admin/nodes/2');
    const config = await screen.findByLabelText('config.yml');
    expect(config.textContent).toBe(nodeConfigYaml(CONFIGURATION));
    expect(config.textContent).toMatch(/^debug: false\nuuid: /);
    expect(screen.getByLabelText('Start command')).toHaveTextContent('npm run -s node -- --config config.yml');
    expect(screen.getByText(/\/etc\/pterodactyl\/config\.yml/)).toBeInTheDocument();
  });

  it('says why the panel’s own node has no config.yml', async () => {
    stubNodesPanel();
    render('/admin/nodes/1');
    expect(await screen.findByText("The panel's own node runs inside the panel: it has no config.yml.")).toBeInTheDocument();
  });

  it('says a node without a memory or disk total has none set, not a total of 0 B', async () => {
    stubNodesPanel();
    render('/admin/nodes/1');
    const memory = await screen.findByText('Memory', { selector: 'dt' });
    expect(memory.nextElementSibling).toHaveTextContent(/^1 GiB allocated \(no total set\)$/);
    expect(screen.getByText('Disk', { selector: 'dt' }).nextElementSibling).toHaveTextContent(/^0 B allocated \(no total set\)$/);
    expect(screen.queryByText(/of 0 B/)).not.toBeInTheDocument();
  });

  it('shows a node’s memory and disk against its totals, with over-allocation', async () => {
    stubNodesPanel();
    render('/admin/nodes/2');
    const memory = await screen.findByText('Memory', { selector: 'dt' });
    expect(memory.nextElementSibling).toHaveTextContent(/^2 GiB of 8 GiB · no over-allocation$/);
  });

  it('adds a range of ports as the API takes them, and shows a refusal in the dialog', async () => {
    const panel = stubNodesPanel();
    render('/admin/nodes/2');
    const list = await screen.findByRole('list', { name: 'Allocations' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Add allocations' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add allocations' });
    fireEvent.change(within(dialog).getByLabelText('IP address'), { target: { value: '10.0.0.5' } });
    fireEvent.change(within(dialog).getByLabelText('Ports'), { target: { value: '80' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText(/must be greater than 1024/)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Ports'), { target: { value: ' 25600-25610,  25700 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(panel.writes().at(-1)?.body).toEqual({ ip: '10.0.0.5', alias: null, ports: ['25600-25610', '25700'] });
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Allocations' })).getAllByRole('listitem')).toHaveLength(3));
  });

  it('sets an allocation’s alias', async () => {
    const panel = stubNodesPanel();
    render('/admin/nodes/2');
    fireEvent.click(await screen.findByRole('button', { name: 'Set alias of 10.0.0.5:25566' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set alias' });
    fireEvent.change(within(dialog).getByLabelText('Alias'), { target: { value: 'play.example.test' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const row = await screen.findByRole('listitem', { name: '10.0.0.5:25566' });
    await within(row).findByText('alias play.example.test');
    expect(panel.writes().at(-1)).toMatchObject({ method: 'PATCH', path: '/api/application/nodes/2/allocations/11' });
  });

  it('removes a free allocation, and shows why an assigned one cannot be removed', async () => {
    stubNodesPanel();
    render('/admin/nodes/2');
    const list = await screen.findByRole('list', { name: 'Allocations' });
    expect(within(within(list).getByRole('listitem', { name: '10.0.0.5:25565' })).getByText('Assigned')).toBeInTheDocument();
    fireEvent.click(within(list).getByRole('button', { name: 'Remove 10.0.0.5:25565' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove allocation' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText('Cannot delete an allocation that is currently assigned to a server.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    fireEvent.click(within(list).getByRole('button', { name: 'Remove 10.0.0.5:25566' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove allocation' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Allocations' })).getAllByRole('listitem')).toHaveLength(1));
  });

  it('shows why a node with servers cannot be deleted', async () => {
    stubNodesPanel();
    const { router } = render('/admin/nodes/2');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete node' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('Cannot delete a node with active servers attached to it.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/nodes/2');
  });
});
