// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { User } from '../../contract/users';
import { changeLocale } from '../../lib/i18n/runtime';
import { renderRoutes } from '../../test/render-routes';
import { json, stubFetch, type FetchCall } from '../../test/server-test-fixtures';
import { AdminUserPage } from './admin-user-page';
import { AdminUsersPage } from './admin-users-page';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLocale('en');
});

const user = (id: number, username: string, extra: Partial<User> = {}): User => ({
  id,
  external_id: null,
  uuid: `00000000-0000-4000-8000-00000000000${id}`,
  username,
  email: `${username}@example.test`,
  first_name: 'Ann',
  last_name: 'Example',
  language: 'en',
  root_admin: false,
  '2fa': false,
  created_at: '2026-01-01T00:00:00+00:00',
  updated_at: '2026-01-01T00:00:00+00:00',
  ...extra,
});

const doc = (u: User) => ({ object: 'user', attributes: u });
const page = (users: User[], current = 1, total = users.length) => ({
  object: 'list',
  data: users.map(doc),
  meta: { pagination: { total, count: users.length, per_page: 50, current_page: current, total_pages: Math.ceil(total / 50) || 1, links: {} } },
});
const refusal = (status: number, detail: string, field?: string) =>
  json(status, {
    errors: [
      {
        code: status === 422 ? 'ValidationException' : 'DisplayException',
        status: String(status),
        detail,
        ...(field ? { meta: { source_field: field, rule: 'unique' } } : {}),
      },
    ],
  });

/** A fake application API: ann (with two-factor and a server) and bob; `mailed`: the panel sends mail. */
function stubPanel({ mailed = false }: { mailed?: boolean } = {}) {
  let users = [user(1, 'ann', { '2fa': true }), user(2, 'bob')];
  const calls: FetchCall[] = [];
  stubFetch((url, call) => {
    calls.push(call);
    if (url.pathname === '/api/application/settings')
      return json(200, {
        object: 'settings',
        attributes: { panel_name: 'Aerie', require_two_factor: 'off', mail: null, mail_source: mailed ? 'environment' : 'none' },
      });
    const path = url.pathname.replace('/api/application/users', '');
    const { method, body } = call;
    if (method === 'GET' && path === '') {
      const email = url.searchParams.get('filter[email]');
      const username = url.searchParams.get('filter[username]');
      return json(
        200,
        page(
          users.filter((u) => (!email || u.email.includes(email)) && (!username || u.username.includes(username))),
          Number(url.searchParams.get('page') ?? 1),
          url.searchParams.get('page') ? 120 : undefined,
        ),
      );
    }
    const id = Number(path.split('/')[1]);
    const found = users.find((u) => u.id === id);
    if (method === 'POST' && path === '') {
      const b = body as { email: string; username: string };
      if (users.some((u) => u.email === b.email)) return refusal(422, 'The email has already been taken.', 'email');
      const created = user(3, b.username, { email: b.email });
      users = [...users, created];
      return json(201, { ...doc(created), meta: { resource: `http://panel.test/api/application/users/${created.id}` } });
    }
    if (!found) return refusal(404, 'The requested resource does not exist on this server.');
    if (method === 'GET') return json(200, doc(found));
    if (method === 'POST' && path.endsWith('/password-reset'))
      return json(200, mailed ? { mailed: true } : { mailed: false, link: 'http://panel.test/auth/password/reset/tok' });
    if (method === 'DELETE' && path.endsWith('/two-factor')) {
      users = users.map((u) => (u.id === id ? { ...u, '2fa': false } : u));
      return new Response(null, { status: 204 });
    }
    if (method === 'DELETE') {
      if (id === 1) return refusal(400, 'Cannot delete a user with active servers attached to their account: Survival.');
      users = users.filter((u) => u.id !== id);
      return new Response(null, { status: 204 });
    }
    return refusal(405, 'Method not allowed.');
  });
  return { writes: () => calls.filter((c) => c.method !== 'GET') };
}

const render = (path: string) =>
  renderRoutes(
    [
      { path: '/admin/users', element: <AdminUsersPage /> },
      { path: '/admin/users/:userId', element: <AdminUserPage /> },
    ],
    path,
  );

const field = (dialog: HTMLElement, name: string) => within(dialog).getByLabelText(name);

describe('AdminUsersPage', () => {
  it('lists users as links to their pages, with admin and two-factor badges', async () => {
    stubPanel();
    const { router } = render('/admin/users');
    const list = await screen.findByRole('list', { name: 'Users' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('Two-factor on')).toBeInTheDocument();
    fireEvent.click(within(list).getByRole('link', { name: 'bob' }));
    expect(router.state.location.pathname).toBe('/admin/users/2');
  });

  it('speaks German once it is chosen: heading, badges, search box and the create button', async () => {
    stubPanel();
    render('/admin/users');
    const list = await screen.findByRole('list', { name: 'Users' });
    await act(() => changeLocale('de'));
    expect(screen.getByRole('heading', { name: 'Benutzer' })).toBeInTheDocument();
    expect(within(list).getByText('Zwei-Faktor an')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Nach E-Mail suchen' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Benutzer erstellen' })).toBeInTheDocument();
    expect(screen.queryByText('Two-factor on')).toBeNull();
  });

  it('searches by e-mail, or by username when chosen, through the URL', async () => {
    stubPanel();
    const { router } = render('/admin/users?q=ann');
    const list = await screen.findByRole('list', { name: 'Users' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    fireEvent.change(screen.getByRole('combobox', { name: 'Search in' }), { target: { value: 'username' } });
    expect(router.state.location.search).toBe('?q=ann&by=username');
    expect(screen.getByRole('searchbox', { name: 'Search by username' })).toHaveValue('ann');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by username' }), { target: { value: 'nobody' } });
    expect(await screen.findByText('No users match “nobody”', {}, { timeout: 2000 })).toBeInTheDocument();
  });

  it('pages through the list', async () => {
    stubPanel();
    const { router } = render('/admin/users?page=2');
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(router.state.location.search).toBe('?page=3');
  });

  it('creates a user: the schema’s message under a field, the server’s under its field, then an invitation without a password', async () => {
    const panel = stubPanel({ mailed: true });
    const { router } = render('/admin/users');
    fireEvent.click(await screen.findByRole('button', { name: 'Create user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create user' });
    expect(within(dialog).getByText(/an invitation e-mail is sent/)).toBeInTheDocument();
    fireEvent.change(field(dialog, 'E-mail'), { target: { value: 'not-an-address' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('The email must be a valid email address.')).toBeInTheDocument();
    expect(panel.writes()).toEqual([]);

    fireEvent.change(field(dialog, 'E-mail'), { target: { value: 'ann@example.test' } });
    fireEvent.change(field(dialog, 'Username'), { target: { value: 'cleo' } });
    fireEvent.change(field(dialog, 'First name'), { target: { value: 'Cleo' } });
    fireEvent.change(field(dialog, 'Last name'), { target: { value: 'Doe' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('The email has already been taken.')).toBeInTheDocument();
    expect(field(dialog, 'E-mail')).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(field(dialog, 'E-mail'), { target: { value: 'cleo@example.test' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create user' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users/3'));
    expect(await screen.findByText(/sent an invitation e-mail/)).toBeInTheDocument();
    expect(panel.writes().at(-1)?.body).toEqual({
      email: 'cleo@example.test',
      username: 'cleo',
      first_name: 'Cleo',
      last_name: 'Doe',
      external_id: null,
      root_admin: false,
    });
  });

  it('does not promise an invitation e-mail when the panel sends no mail: it points to the password link', async () => {
    stubPanel({ mailed: false });
    const { router } = render('/admin/users');
    fireEvent.click(await screen.findByRole('button', { name: 'Create user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create user' });
    expect(await within(dialog).findByText(/this panel sends no mail, so you pass the link on/)).toBeInTheDocument();
    expect(within(dialog).queryByText(/invitation e-mail/)).not.toBeInTheDocument();
    fireEvent.change(field(dialog, 'E-mail'), { target: { value: 'cleo@example.test' } });
    fireEvent.change(field(dialog, 'Username'), { target: { value: 'cleo' } });
    fireEvent.change(field(dialog, 'First name'), { target: { value: 'Cleo' } });
    fireEvent.change(field(dialog, 'Last name'), { target: { value: 'Doe' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create user' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users/3'));
    expect(await screen.findByText(/created without a password\. This panel sends no mail/)).toBeInTheDocument();
    expect(screen.queryByText(/sent an invitation e-mail/)).not.toBeInTheDocument();
  });
});

describe('AdminUserPage', () => {
  it('shows the refusal to delete a user who owns servers inside the dialog, naming them', async () => {
    stubPanel();
    render('/admin/users/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText(/active servers attached to their account: Survival/)).toBeInTheDocument();
  });

  it('deletes a user and goes back to the list', async () => {
    const panel = stubPanel();
    const { router } = render('/admin/users/2');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete user' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users'));
    expect(panel.writes()).toEqual([{ method: 'DELETE', path: '/api/application/users/2', body: undefined }]);
  });

  it('gives the password link to copy when the panel sends no mail, and says "mailed" when it does', async () => {
    stubPanel();
    render('/admin/users/2');
    fireEvent.click(await screen.findByRole('button', { name: 'Password link' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Send a password link' })).getByRole('button', { name: 'Make the link' }));
    expect(await screen.findByText('http://panel.test/auth/password/reset/tok')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy link: http://panel.test/auth/password/reset/tok' })).toBeInTheDocument();
    cleanup();

    stubPanel({ mailed: true });
    render('/admin/users/2');
    fireEvent.click(await screen.findByRole('button', { name: 'Password link' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Send a password link' })).getByRole('button', { name: 'Make the link' }));
    expect(await screen.findByText('A link to set a new password was mailed to bob@example.test.')).toBeInTheDocument();
  });

  it('turns off two-factor sign-in, offered only while it is on', async () => {
    const panel = stubPanel();
    render('/admin/users/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off two-factor' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in' })).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Turn off two-factor' })).not.toBeInTheDocument());
    expect(panel.writes()).toEqual([{ method: 'DELETE', path: '/api/application/users/1/two-factor', body: undefined }]);
  });

  it('edits a user with the current values filled in', async () => {
    const panel = stubPanel();
    render('/admin/users/2');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user' });
    expect(field(dialog, 'Username')).toHaveValue('bob');
    expect(within(dialog).getByText('Leave it empty to keep the current password.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Root admin/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(panel.writes()).toHaveLength(1));
    expect(panel.writes()[0]).toMatchObject({
      method: 'PATCH',
      path: '/api/application/users/2',
      body: { username: 'bob', root_admin: true, language: 'en' },
    });
  });
});
