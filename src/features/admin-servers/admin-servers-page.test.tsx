// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { changeLocale } from '../../lib/i18n/runtime';
import { renderRoutes } from '../../test/render-routes';
import { stubAdminPanel } from '../../test/admin-server-fixtures';
import { AdminServerPage } from './admin-server-page';
import { AdminServersPage } from './admin-servers-page';
import { CreateServerPage } from './create-server-page';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLocale('en');
});

const stubPanel = () =>
  stubAdminPanel({ refuse: { path: '/startup', detail: 'The Max players must be between 1 and 100.', field: 'environment.MAX_PLAYERS' } });

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

  it('shows memory and disk limits in the same units (the client area’s), not one in GiB and the other in MiB', async () => {
    stubPanel();
    render('/admin/servers/1');
    const limits = await screen.findByRole('heading', { name: 'Limits and ports' });
    const card = limits.closest('section') ?? document.body;
    expect(within(card).getByText('Memory').nextElementSibling).toHaveTextContent('1 GiB');
    expect(within(card).getByText('Disk').nextElementSibling).toHaveTextContent('5 GiB');
    expect(within(card).queryByText(/MiB/)).not.toBeInTheDocument();
  });

  it('gives each feature limit a row of its own', async () => {
    stubPanel();
    render('/admin/servers/1');
    await screen.findByRole('heading', { name: 'Limits and ports' });
    for (const term of ['Databases', 'Allocations', 'Backups'])
      expect(screen.getByText(term, { exact: true }).nextElementSibling?.textContent).toMatch(/^(\d+|No limit)$/);
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

describe('the admin server page in German', () => {
  it('names its actions, cards, limits and page title in German', async () => {
    stubPanel();
    await act(() => changeLocale('de'));
    render('/admin/servers/1');
    const limits = await screen.findByRole('heading', { name: 'Limits und Ports' });
    expect(within(screen.getByRole('group', { name: 'Serveraktionen' })).getByRole('button', { name: 'Sperren' })).toBeInTheDocument();
    const card = limits.closest('section') ?? document.body;
    expect(within(card).getByText('Arbeitsspeicher').nextElementSibling).toHaveTextContent('1 GiB');
    expect(within(card).getByText('Bei Speichermangel')).toBeInTheDocument();
    expect(document.title).toMatch(/ · Server · Admin · Aerie$/);
    expect(screen.queryByText('Limits and ports')).not.toBeInTheDocument();
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
