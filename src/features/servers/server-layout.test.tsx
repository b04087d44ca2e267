// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SERVER_PAGES } from '../../app/server-routes';
import { serverQueries } from './api';
import { changeLocale } from '../../lib/i18n/runtime';
import { apiError, json, makeServer, renderServerRoutes, serverDocument, stubFetch, withCatalogue } from '../../test/server-test-fixtures';
import { testAccount } from '../../test/server-test-fixtures';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLocale('en');
});

/** A subuser holding only file.read, with the panel's permission catalogue. */
function stubFileReaderWithCatalogue() {
  stubFetch(
    withCatalogue(() => json(200, serverDocument(makeServer({ server_owner: false }), { is_server_owner: false, user_permissions: ['file.read'] }))),
  );
}

function navLinks() {
  return within(screen.getByRole('navigation', { name: 'Server' }))
    .getAllByRole('link')
    .map((a) => a.textContent);
}

describe('ServerLayout', () => {
  it('shows every page to the owner, with the current one marked', async () => {
    stubFetch(() => json(200, serverDocument(makeServer(), { is_server_owner: true, user_permissions: ['*'] })));
    renderServerRoutes('/server/abcd1234');
    expect(await screen.findByRole('heading', { level: 1, name: 'Survival' })).toBeInTheDocument();
    expect(navLinks()).toEqual([
      'Console',
      'Overview',
      'Files',
      'Databases',
      'Network',
      'Startup',
      'Users',
      'Backups',
      'Schedules',
      'Settings',
      'Activity',
    ]);
    expect(screen.getByRole('link', { name: 'Console' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Activity' })).not.toHaveAttribute('aria-current');
  });

  it('replaces the server with "Not found" when a refetch says the access ended (removed as a subuser)', async () => {
    let removed = false;
    stubFetch(() =>
      removed ? apiError(404, 'Not found') : json(200, serverDocument(makeServer(), { is_server_owner: false, user_permissions: ['file.read'] })),
    );
    const { client } = renderServerRoutes('/server/abcd1234');
    expect(await screen.findByRole('heading', { level: 1, name: 'Survival' })).toBeInTheDocument();
    removed = true;
    await client.invalidateQueries({ queryKey: serverQueries.detail('abcd1234').queryKey });
    expect(await screen.findByRole('heading', { level: 1, name: 'Not found' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1, name: 'Survival' })).toBeNull();
  });

  it('keeps the Files tab current inside the editor, and names the server in the breadcrumb', async () => {
    stubFetch(() => json(200, serverDocument(makeServer(), { is_server_owner: true, user_permissions: ['*'] })));
    renderServerRoutes('/server/abcd1234/file/server.properties');
    expect(await screen.findByText('Edit file page')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Files' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Console' })).not.toHaveAttribute('aria-current');
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Survival')).toHaveAttribute('aria-current', 'page');
  });

  it('on an unavailable server, shows pages that would be refused as unavailable and asks them for nothing', async () => {
    const fetch = stubFetch(() =>
      json(200, serverDocument(makeServer({ status: 'suspended', is_suspended: true }), { is_server_owner: true, user_permissions: ['*'] })),
    );
    const { router } = renderServerRoutes('/server/abcd1234/databases');
    expect(await screen.findByText('Databases unavailable')).toBeInTheDocument();
    expect(screen.getByText('This page cannot be shown while the server is suspended.')).toBeInTheDocument();
    expect(screen.queryByText('Databases page')).toBeNull();
    for (const page of ['network', 'startup', 'users', 'activity', 'backups']) {
      await router.navigate(`/server/abcd1234/${page}`);
      expect(await screen.findByText(/ unavailable$/)).toBeInTheDocument();
    }
    // Pages that say for themselves what is unavailable still render.
    await router.navigate('/server/abcd1234/settings');
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
    // Only the server itself was asked for.
    const asked = fetch.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname);
    expect(new Set(asked)).toEqual(new Set(['/api/client/servers/abcd1234']));
  });

  it('says when the server’s node does not answer: console and files give way to a notice, other pages still open', async () => {
    stubFetch((input) =>
      new URL(String(input), 'http://localhost').pathname.endsWith('/resources')
        ? json(504, { errors: [{ code: 'DaemonConnectionException', status: '504', detail: 'The node eu-1 cannot be reached.' }] })
        : json(200, serverDocument(makeServer({ node: 'eu-1' }), { is_server_owner: true, user_permissions: ['*'] })),
    );
    const { router } = renderServerRoutes('/server/abcd1234');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "This server's node (eu-1) is not answering; files, console and power are unavailable until it is back.",
    );
    expect(screen.getByText('Console unavailable')).toBeInTheDocument();
    await router.navigate('/server/abcd1234/files/');
    expect(await screen.findByText('Files unavailable')).toBeInTheDocument();
    await router.navigate('/server/abcd1234/settings');
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toBeInTheDocument();
  });

  it('shows root admins what the panel last heard from the node', async () => {
    const health = {
      reachable: true,
      version: '1.11.13',
      last_seen: '2026-11-29T05:00:00.000Z',
      checked_at: '2026-11-29T05:00:00.000Z',
      reason: null,
    };
    stubFetch(() => json(200, serverDocument(makeServer({ aerie_node_health: health }), { is_server_owner: false, user_permissions: ['*'] })));
    renderServerRoutes('/server/abcd1234/settings');
    expect(await screen.findByLabelText('Node health')).toHaveTextContent(/Node answering · version 1\.11\.13 · last seen/);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a backup restore leaves the backups page to show its own progress', async () => {
    stubFetch(() => json(200, serverDocument(makeServer({ status: 'restoring_backup' }), { is_server_owner: true, user_permissions: ['*'] })));
    renderServerRoutes('/server/abcd1234/backups');
    expect(await screen.findByText('Backups page')).toBeInTheDocument();
  });

  it('shows a subuser only the pages their permissions allow', async () => {
    stubFetch(() => json(200, serverDocument(makeServer({ server_owner: false }), { is_server_owner: false, user_permissions: ['file.read'] })));
    renderServerRoutes('/server/abcd1234');
    await screen.findByRole('heading', { level: 1 });
    expect(navLinks()).toEqual(['Console', 'Overview', 'Files']);
  });

  it('explains a page the subuser may not open, naming the permission it needs', async () => {
    stubFileReaderWithCatalogue();
    renderServerRoutes('/server/abcd1234/activity');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'You do not have access to this' })).toBeInTheDocument();
    expect(within(alert).getByText(/Ask the server owner/)).toBeInTheDocument();
    expect(await within(alert).findByText(/Read the activity log\./)).toBeInTheDocument();
    expect(alert).toHaveTextContent('Needs the activity.read permission');
  });

  it("describes the missing permission in German, not in the panel's English", async () => {
    stubFileReaderWithCatalogue();
    renderServerRoutes('/server/abcd1234/activity', {}, { ...testAccount, language: 'de' });
    const alert = await screen.findByRole('alert');
    expect(await within(alert).findByText(/Das Aktivitätsprotokoll dieses Servers lesen\./)).toBeInTheDocument();
    expect(alert).toHaveTextContent('Erfordert die Berechtigung activity.read');
    expect(alert).not.toHaveTextContent(/Read the activity log|Needs/);
  });

  it('lists the pages a subuser cannot open, each with the permission it needs, behind a disclosure', async () => {
    stubFileReaderWithCatalogue();
    renderServerRoutes('/server/abcd1234');
    await screen.findByRole('heading', { level: 1 });
    // Every page needing a permission but Files (the Users page may join the table).
    const hidden = SERVER_PAGES.filter((p) => p.nav && p.permission !== null && p.permission !== 'file.read').length;
    const toggle = screen.getByRole('button', { name: `${hidden} more pages` });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Pages you cannot open' })).not.toBeInTheDocument();
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const panel = screen.getByRole('region', { name: 'Pages you cannot open' });
    const rows = within(panel)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(rows).toHaveLength(hidden);
    expect(rows).toContain('DatabasesNeeds the database.read permission');
    expect(rows).toContain('SettingsNeeds a settings.* permission');
    expect(await within(panel).findByText(/Read the activity log\./)).toBeInTheDocument();
  });

  it('closes the hidden-pages list when a tab is followed', async () => {
    stubFetch(() => json(200, serverDocument(makeServer({ server_owner: false }), { is_server_owner: false, user_permissions: ['file.read'] })));
    renderServerRoutes('/server/abcd1234');
    await screen.findByRole('heading', { level: 1 });
    await userEvent.click(screen.getByRole('button', { name: /more pages$/ }));
    expect(screen.getByRole('region', { name: 'Pages you cannot open' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Files' }));
    expect(await screen.findByText('Files page')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Pages you cannot open' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /more pages$/ })).toHaveAttribute('aria-expanded', 'false');
  });

  it('has no hidden-pages disclosure for the owner', async () => {
    stubFetch(() => json(200, serverDocument(makeServer(), { is_server_owner: true, user_permissions: ['*'] })));
    renderServerRoutes('/server/abcd1234');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('button', { name: /more page/ })).not.toBeInTheDocument();
  });

  it('says not found for a server the API does not show', async () => {
    stubFetch(() => apiError(404, 'The requested resource could not be found on the server.'));
    renderServerRoutes('/server/zzzz9999');
    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Server' })).not.toBeInTheDocument();
  });

  it('shows a banner and a badge for a suspended server', async () => {
    stubFetch(() =>
      json(200, serverDocument(makeServer({ status: 'suspended', is_suspended: true }), { is_server_owner: true, user_permissions: ['*'] })),
    );
    renderServerRoutes('/server/abcd1234');
    expect(await screen.findByText('This server is suspended; most actions are unavailable.')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Server state' })).getByText('Suspended')).toBeInTheDocument();
  });

  it('renders a hostile server name as text', async () => {
    stubFetch(() =>
      json(200, serverDocument(makeServer({ name: '<img src=x onerror=alert(1)>' }), { is_server_owner: true, user_permissions: ['*'] })),
    );
    const { container } = renderServerRoutes('/server/abcd1234');
    expect(await screen.findByRole('heading', { level: 1, name: '<img src=x onerror=alert(1)>' })).toBeInTheDocument();
    expect(container.querySelector('img[src="x"]')).toBeNull();
  });
});
