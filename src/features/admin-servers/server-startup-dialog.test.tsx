// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminEgg, eggVariable, stubAdminPanel } from '../../test/admin-server-fixtures';
import { renderRoutes } from '../../test/render-routes';
import { AdminServerPage } from './admin-server-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Server 1 runs egg 1 (Demo game, MAX_PLAYERS = 10); Paper sits in another nest with its own variable.
const stubPanel = () =>
  stubAdminPanel({
    nests: [
      { id: 1, name: 'Aerie', eggs: [adminEgg(1, 'Demo game', { docker_images: { Demo: 'ghcr.io/demo:1' } })] },
      {
        id: 2,
        name: 'Minecraft',
        eggs: [adminEgg(5, 'Paper', { nest: 2, docker_images: { 'Java 21': 'ghcr.io/java:21', 'Java 17': 'ghcr.io/java:17' } })],
      },
    ],
    variables: {
      5: [
        eggVariable(5, 'SERVER_JARFILE', {
          name: 'Server Jar File',
          description: 'The jar to run.',
          default_value: 'server.jar',
          rules: 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/',
        }),
      ],
    },
  });

async function openDialog() {
  renderRoutes([{ path: '/admin/servers/:serverId', element: <AdminServerPage /> }], '/admin/servers/1');
  fireEvent.click(await screen.findByRole('button', { name: 'Edit startup' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit startup' });
  const egg = within(dialog).getByLabelText('Egg');
  await within(egg).findByRole('option', { name: 'Paper' });
  return { dialog, egg };
}

describe('ServerStartupDialog', () => {
  it('picks the egg among the nests’ eggs, grouped by nest, starting at the server’s own', async () => {
    stubPanel();
    const { dialog, egg } = await openDialog();
    expect(egg).toHaveValue('1');
    expect(within(dialog).queryByLabelText('Egg ID')).not.toBeInTheDocument();
    const groups = within(egg).getAllByRole('group');
    expect(groups.map((g) => g.getAttribute('label'))).toEqual(['Aerie', 'Minecraft']);
    expect(within(groups[1] as HTMLElement).getByRole('option', { name: 'Paper' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Max players/)).toHaveValue('10');
  });

  it('another egg brings its variables with their rules and defaults, its image and command, and is sent with them', async () => {
    const panel = stubPanel();
    const { dialog, egg } = await openDialog();
    const user = userEvent.setup();
    await user.selectOptions(egg, 'Paper');
    const jar = await within(dialog).findByLabelText(/Server Jar File/);
    await waitFor(() => expect(jar).toHaveValue('server.jar'));
    expect(within(dialog).getByText('Rules: required|regex:/^([\\w\\d._-]+)(\\.jar)$/')).toBeInTheDocument();
    expect(within(dialog).getByText('The jar to run.')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText(/Max players/)).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Image')).toHaveValue('ghcr.io/java:21');
    expect(within(dialog).getByLabelText('Startup command')).toHaveValue('./paper');
    const offered = [...(dialog.querySelector('datalist')?.querySelectorAll('option') ?? [])].map((o) => o.value);
    expect(offered).toEqual(['ghcr.io/java:21', 'ghcr.io/java:17']);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(panel.writes()).toHaveLength(1));
    expect(panel.writes()[0]?.body).toEqual({
      egg: 5,
      image: 'ghcr.io/java:21',
      startup: './paper',
      skip_scripts: false,
      environment: { SERVER_JARFILE: 'server.jar' },
    });
  });

  it('going back to the server’s egg brings back its own values', async () => {
    stubPanel();
    const { dialog, egg } = await openDialog();
    const user = userEvent.setup();
    await user.selectOptions(egg, 'Paper');
    await within(dialog).findByLabelText(/Server Jar File/);
    await user.selectOptions(egg, 'Demo game');
    await waitFor(() => expect(within(dialog).getByLabelText(/Max players/)).toHaveValue('10'));
    expect(within(dialog).getByLabelText('Image')).toHaveValue('ghcr.io/demo:1');
    expect(within(dialog).getByLabelText('Startup command')).toHaveValue('./run');
  });
});
