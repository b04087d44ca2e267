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

type User = ReturnType<typeof userEvent.setup>;
const optionsOf = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((o) => o.textContent);

/** Picks `option` of the select labelled `label` once it is offered. */
async function pick(user: User, label: string, option: string) {
  const select = await screen.findByLabelText(label);
  await within(select).findByRole('option', { name: option });
  await user.selectOptions(select, option);
  return select;
}

/** Fills what placement does not, creates, and returns the request sent. */
async function create(user: User, panel: ReturnType<typeof stubPanel>) {
  await user.type(screen.getByLabelText('Name'), 'Made');
  await pick(user, 'Owner', 'ann@example.test (ann)');
  await pick(user, 'Egg', 'Demo game');
  expect(await screen.findByLabelText(/Message/)).toHaveValue('Hello');
  fireEvent.click(screen.getByRole('button', { name: 'Create server' }));
  expect(await screen.findByText('Made it')).toBeInTheDocument();
  return panel.writes()[0];
}

const render = () => {
  renderRoutes(
    [
      { path: '/admin/servers/new', element: <CreateServerPage /> },
      { path: '/admin/servers/:serverId', element: <p>Made it</p> },
    ],
    '/admin/servers/new',
  );
  return userEvent.setup();
};

describe('CreateServerPage placement', () => {
  it('takes the node’s first free port as primary, offers the others as extra ports, and sends both', async () => {
    const panel = stubPanel();
    const user = render();
    await pick(user, 'Node', 'Frankfurt 1');
    const primary = screen.getByLabelText('Primary port');
    await waitFor(() => expect(primary).toHaveValue('11'));
    expect(screen.getByText(/the first is taken unless you pick another/)).toBeInTheDocument();
    const extra = screen.getByLabelText('Extra ports');
    expect(optionsOf(extra)).toEqual(['127.0.0.1:25566', '127.0.0.1:25567']);

    // An extra port picked as primary stops being an extra one, and the old primary is offered instead.
    await user.selectOptions(extra, ['127.0.0.1:25566', '127.0.0.1:25567']);
    await user.selectOptions(primary, '127.0.0.1:25566');
    expect(optionsOf(extra)).toEqual(['127.0.0.1:25565', '127.0.0.1:25567']);

    const sent = await create(user, panel);
    expect(sent?.path).toBe('/api/application/servers');
    expect(sent?.body).toMatchObject({ allocation: { default: 12, additional: [13] }, egg: 1, user: 5, environment: { MOTD: 'Hello' } });
    expect(sent?.body).not.toHaveProperty('deploy');
  });

  it('deploys over the location of a node that lists no free allocations, saying when other nodes share it', async () => {
    const panel = stubPanel();
    const user = render();
    const node = await pick(user, 'Node', 'Lonely');
    expect(
      await screen.findByText('This node lists no free allocations: the lowest free port of a node in its location is taken.'),
    ).toBeInTheDocument();
    await user.selectOptions(node, 'Frankfurt 2');
    expect(await screen.findByText(/holds 1 other node, so the server may land on one of those/)).toBeInTheDocument();
    expect(screen.getByLabelText('Primary port')).toBeDisabled();
    expect(screen.queryByLabelText('Extra ports')).not.toBeInTheDocument();

    const sent = await create(user, panel);
    expect(sent?.body).toMatchObject({ deploy: { locations: [3], dedicated_ip: false, port_range: [] } });
    expect(sent?.body).not.toHaveProperty('allocation');
  });

  it('says in words what an empty form lacks: the owner, the node and the egg, sending nothing', async () => {
    const panel = stubPanel();
    const user = render();
    await screen.findByRole('option', { name: 'Frankfurt 1' });
    await user.click(screen.getByRole('button', { name: 'Create server' }));
    expect(await screen.findByText('The user field is required.')).toBeInTheDocument();
    expect(screen.getByText('The egg field is required.')).toBeInTheDocument();
    expect(screen.getByText('Choose the node the server runs on.')).toBeInTheDocument();
    expect(screen.queryByText('Invalid input')).not.toBeInTheDocument();
    expect(screen.queryByText(/allocation\.default/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Node')).toHaveAttribute('aria-invalid', 'true');
    expect(panel.writes()).toEqual([]);
  });
});
