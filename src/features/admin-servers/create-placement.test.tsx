// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminEgg, adminNode, eggVariable, freeAllocation, stubAdminPanel } from '../../test/admin-server-fixtures';
import { renderRoutes } from '../../test/render-routes';
import { CreateServerPage } from './create-server-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Two nodes share location 3; "Lonely" has a location of its own; only Frankfurt 1 lists free allocations.
const stubPanel = () =>
  stubAdminPanel({
    nodes: [adminNode(1, 'Frankfurt 1', 3), adminNode(2, 'Frankfurt 2', 3), adminNode(4, 'Lonely', 4)],
    free: { 1: [freeAllocation(11, 25565), freeAllocation(12, 25566), freeAllocation(13, 25567)] },
    nests: [{ id: 1, name: 'Games', eggs: [adminEgg(1, 'Demo game')] }],
    variables: { 1: [eggVariable(1, 'MOTD', { name: 'Message', default_value: 'Hello', rules: 'required|string' })] },
  });

async function fillTheRest() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Name'), 'Made');
  const owner = screen.getByLabelText('Owner');
  await within(owner).findByRole('option', { name: 'ann@example.test (ann)' });
  await user.selectOptions(owner, 'ann@example.test (ann)');
  const egg = screen.getByLabelText('Egg');
  await within(egg).findByRole('option', { name: 'Demo game' });
  await user.selectOptions(egg, 'Demo game');
  expect(await screen.findByLabelText(/Message/)).toHaveValue('Hello');
  return user;
}

const render = () =>
  renderRoutes(
    [
      { path: '/admin/servers/new', element: <CreateServerPage /> },
      { path: '/admin/servers/:serverId', element: <p>Made it</p> },
    ],
    '/admin/servers/new',
  );

describe('CreateServerPage placement', () => {
  it('takes the node’s first free port as primary, offers the others as extra ports, and sends both', async () => {
    const panel = stubPanel();
    render();
    const user = userEvent.setup();
    const node = await screen.findByLabelText('Node');
    await within(node).findByRole('option', { name: 'Frankfurt 1' });
    await user.selectOptions(node, 'Frankfurt 1');
    const primary = screen.getByLabelText('Primary port');
    await waitFor(() => expect(primary).toHaveValue('11'));
    expect(screen.getByText(/the first is taken unless you pick another/)).toBeInTheDocument();
    const extra = screen.getByLabelText('Extra ports');
    expect(
      within(extra)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['127.0.0.1:25566', '127.0.0.1:25567']);

    // An extra port picked as primary stops being an extra one, and the old primary is offered instead.
    await user.selectOptions(extra, ['127.0.0.1:25566', '127.0.0.1:25567']);
    await user.selectOptions(primary, '127.0.0.1:25566');
    expect(
      within(extra)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['127.0.0.1:25565', '127.0.0.1:25567']);

    await fillTheRest();
    fireEvent.click(screen.getByRole('button', { name: 'Create server' }));
    expect(await screen.findByText('Made it')).toBeInTheDocument();
    const [sent] = panel.writes();
    expect(sent?.path).toBe('/api/application/servers');
    expect(sent?.body).toMatchObject({ allocation: { default: 12, additional: [13] }, egg: 1, user: 5, environment: { MOTD: 'Hello' } });
    expect(sent?.body).not.toHaveProperty('deploy');
  });

  it('deploys over the location of a node that lists no free allocations, saying when other nodes share it', async () => {
    const panel = stubPanel();
    render();
    const user = userEvent.setup();
    const node = await screen.findByLabelText('Node');
    await within(node).findByRole('option', { name: 'Lonely' });
    await user.selectOptions(node, 'Lonely');
    expect(
      await screen.findByText('This node lists no free allocations: the lowest free port of a node in its location is taken.'),
    ).toBeInTheDocument();
    await user.selectOptions(node, 'Frankfurt 2');
    expect(await screen.findByText(/holds 1 other node, so the server may land on one of those/)).toBeInTheDocument();
    expect(screen.getByLabelText('Primary port')).toBeDisabled();
    expect(screen.queryByLabelText('Extra ports')).not.toBeInTheDocument();

    await fillTheRest();
    fireEvent.click(screen.getByRole('button', { name: 'Create server' }));
    expect(await screen.findByText('Made it')).toBeInTheDocument();
    const [sent] = panel.writes();
    expect(sent?.body).toMatchObject({ deploy: { locations: [3], dedicated_ip: false, port_range: [] } });
    expect(sent?.body).not.toHaveProperty('allocation');
  });
});
