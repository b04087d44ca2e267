// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ServerDatabase } from '../../contract/databases';
import { json, makeServer, renderServerRoutes, serverDocument, stubFetch, testAccount, type FetchCall } from '../../test/server-test-fixtures';
import { DatabasesPage } from './databases-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const BASE = '/api/client/servers/abcd1234-5678-4abc-8def-0123456789ab/databases';

type Answer = (method: string, path: string, body: unknown) => Response | undefined;

const stored = (id: string, name: string, password: string) => ({
  database: { id, host: { address: '127.0.0.1', port: 3307 }, name, username: `u1_${id}`, connections_from: '%', max_connections: 10 },
  password,
});

/** A fake panel holding databases with their passwords; `answer` may take any request first (a refusal). */
function stubPanel({ permissions = ['*'], limit = 2, answer }: { permissions?: string[]; limit?: number | null; answer?: Answer } = {}) {
  let databases = [stored('abc', 's1_luckperms', 'pw-old-1')];
  const server = serverDocument(makeServer({ feature_limits: { databases: limit, allocations: 3, backups: 0 } }), {
    is_server_owner: permissions.includes('*'),
    user_permissions: permissions,
  });
  const visible = permissions.includes('*') || permissions.includes('database.view_password');
  const resource = ({ database, password }: (typeof databases)[number], include: boolean) => ({
    object: 'server_database',
    attributes: {
      ...database,
      ...(include
        ? {
            relationships: {
              password: visible ? { object: 'database_password', attributes: { password } } : { object: 'null_resource', attributes: null },
            },
          }
        : {}),
    } satisfies ServerDatabase,
  });
  const requests: FetchCall[] = [];
  stubFetch((url, { method, body }) => {
    if (!url.pathname.startsWith(BASE)) return json(200, server);
    const path = url.pathname.slice(BASE.length) + url.search;
    requests.push({ method, path, body });
    const early = answer?.(method, path, body);
    if (early) return early;
    const id = path.split('/')[1];
    if (method === 'GET')
      return json(200, { object: 'list', data: databases.map((d) => resource(d, url.searchParams.get('include') === 'password')) });
    if (method === 'POST' && path === '') {
      const { database, remote } = body as { database: string; remote: string };
      const created = {
        ...stored('new', `s1_${database}`, 'pw-new-1'),
        database: { ...stored('new', `s1_${database}`, '').database, connections_from: remote },
      };
      databases = [...databases, created];
      return json(200, resource(created, true));
    }
    if (method === 'POST') {
      databases = databases.map((d) => (d.database.id === id ? { ...d, password: 'pw-rotated-2' } : d));
      const rotated = databases.find((d) => d.database.id === id);
      return rotated ? json(200, resource(rotated, true)) : json(404, { errors: [{ code: 'NotFound', status: '404', detail: 'Not found' }] });
    }
    databases = databases.filter((d) => d.database.id !== id);
    return new Response(null, { status: 204 });
  });
  return { requests, writes: () => requests.filter((r) => r.method !== 'GET') };
}

const render = (account = testAccount) => renderServerRoutes('/server/abcd1234/databases', { databases: () => <DatabasesPage /> }, account);
const row = (name: string) => screen.getByRole('listitem', { name });
const details = async (name: string) => {
  fireEvent.click(within(await screen.findByRole('listitem', { name })).getByRole('button', { name: `Details of ${name}` }));
  return row(name);
};

/** Opens the create dialog once the list is in (the button waits for it). */
async function openCreate() {
  await screen.findByRole('list', { name: 'Databases' });
  fireEvent.click(screen.getByRole('button', { name: 'New database' }));
  return screen.findByRole('dialog', { name: 'New database' });
}

describe('DatabasesPage', () => {
  it('lists name, endpoint, connections from and username, each with copy, and "1 of 2 used"', async () => {
    const panel = stubPanel();
    render();
    const item = await screen.findByRole('listitem', { name: 's1_luckperms' });
    for (const [label, value] of [
      ['name', 's1_luckperms'],
      ['endpoint', '127.0.0.1:3307'],
      ['connections from', '%'],
      ['username', 'u1_abc'],
    ]) {
      expect(within(item).getByRole('button', { name: `Copy ${label}: ${value}` })).toBeInTheDocument();
    }
    expect(screen.getByText('1 of 2 used')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New database' })).toBeEnabled();
    // The owner may view passwords: the list asks for them.
    expect(panel.requests[0]?.path).toBe('?include=password');
  });

  it('hides the password until revealed, then shows it, copies it and puts it in the connection strings', async () => {
    stubPanel();
    render();
    const item = await details('s1_luckperms');
    expect(within(item).queryByText('pw-old-1')).toBeNull();
    expect(within(item).getByRole('button', { name: 'Copy connection url: mysql://u1_abc@127.0.0.1:3307/s1_luckperms' })).toBeInTheDocument();
    expect(within(item).getByText('jdbc:mysql://u1_abc@127.0.0.1:3307/s1_luckperms')).toBeInTheDocument();
    expect(within(item).queryByRole('button', { name: /^Copy password/ })).toBeNull();
    expect(within(item).getByText('At most 10 connections at once.')).toBeInTheDocument();

    fireEvent.click(within(item).getByRole('button', { name: 'Show password' }));
    expect(within(item).getByText('pw-old-1')).toBeInTheDocument();
    expect(within(item).getByRole('button', { name: 'Copy password: pw-old-1' })).toBeInTheDocument();
    expect(within(item).getByText('mysql://u1_abc:pw-old-1@127.0.0.1:3307/s1_luckperms')).toBeInTheDocument();
    expect(within(item).getByText('jdbc:mysql://u1_abc:pw-old-1@127.0.0.1:3307/s1_luckperms')).toBeInTheDocument();

    fireEvent.click(within(item).getByRole('button', { name: 'Hide password' }));
    expect(within(item).queryByText('pw-old-1')).toBeNull();
  });

  it('a subuser with database.read alone gets no password, no actions, and hints naming what they lack', async () => {
    const panel = stubPanel({ permissions: ['database.read'] });
    render();
    const item = await details('s1_luckperms');
    expect(panel.requests[0]?.path).toBe('');
    expect(within(item).queryByText('Password')).toBeNull();
    expect(within(item).queryByRole('button', { name: 'Show password' })).toBeNull();
    expect(within(item).getByText('mysql://u1_abc@127.0.0.1:3307/s1_luckperms')).toBeInTheDocument();
    expect(within(item).getByText(/The password is hidden/)).toHaveTextContent('Needs the database.view_password permission');
    expect(within(item).queryByRole('button', { name: 'Rotate password' })).toBeNull();
    expect(within(item).queryByRole('button', { name: 'Delete database' })).toBeNull();
    const create = screen.getByRole('button', { name: 'New database' });
    expect(create).toBeDisabled();
    expect(create).toHaveAccessibleDescription('Needs database.create, database.update, database.delete and database.view_password permissions');
  });

  it('creates a database with the rules shown, then is at the limit and says so', async () => {
    const panel = stubPanel();
    render();
    const dialog = await openCreate();
    expect(dialog).toHaveTextContent('1 to 48 letters, digits, underscores or dashes');
    expect(within(dialog).getByRole('textbox', { name: 'Connections from' })).toHaveValue('%');

    // Refused in the browser with the contract's rule, on its field, and nothing sent.
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Database name' }), { target: { value: 'bad name' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The database name must be 1 to 48 letters');
    expect(panel.writes()).toEqual([]);

    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Database name' }), { target: { value: 'dynmap' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(panel.writes()).toEqual([{ method: 'POST', path: '', body: { database: 'dynmap', remote: '%' } }]);
    // The new one opens with its details.
    expect(
      await within(await screen.findByRole('listitem', { name: 's1_dynmap' })).findByRole('button', { name: 'Show password' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('2 of 2 used')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New database' })).toBeDisabled();
    expect(screen.getByText('The database limit of this server has been reached.')).toBeInTheDocument();
  });

  it('puts a field error from the panel on its field, and another refusal above the form', async () => {
    let reply = json(422, {
      errors: [{ code: 'ValidationException', status: '422', detail: 'That address pattern is not allowed.', source: { field: 'remote' } }],
    });
    stubPanel({ answer: (method) => (method === 'POST' ? reply : undefined) });
    render();
    const dialog = await openCreate();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Database name' }), { target: { value: 'luckperms' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    const remote = within(dialog).getByRole('textbox', { name: 'Connections from' });
    await waitFor(() => expect(remote).toHaveAttribute('aria-invalid', 'true'));
    expect(remote).toHaveAccessibleDescription('That address pattern is not allowed.');

    reply = json(400, {
      errors: [{ code: 'DuplicateDatabaseNameException', status: '400', detail: 'A database with that name already exists for this server.' }],
    });
    fireEvent.change(remote, { target: { value: '10.0.0.%' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('A database with that name already exists for this server.')).toBeInTheDocument();
    expect(screen.queryByText(/no database host/)).toBeNull();
  });

  it.each([
    [0, 'This server may not have databases.'],
    [1, 'The database limit of this server has been reached.'],
  ])('with a limit of %i create is off and says why', async (limit, reason) => {
    stubPanel({ limit });
    render();
    await screen.findByRole('list', { name: 'Databases' });
    expect(screen.getByText(`1 of ${limit} used`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New database' })).toBeDisabled();
    expect(screen.getByText(reason)).toBeInTheDocument();
  });

  it.each([
    [false, 'Ask the panel', null],
    [true, 'dbhost:create', 'PANEL_DB_HOST_URL'],
  ])('without a database host says so after a create (admin: %s)', async (admin, says, alsoSays) => {
    stubPanel({
      answer: (method) =>
        method === 'POST'
          ? json(400, { errors: [{ code: 'NoSuitableDatabaseHostException', status: '400', detail: 'This panel has no database host.' }] })
          : undefined,
    });
    render({ ...testAccount, admin });
    const dialog = await openCreate();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Database name' }), { target: { value: 'luckperms' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Cancel' }));
    const notice = await screen.findByText('This panel has no database host, so databases cannot be created here.');
    expect(notice.parentElement).toHaveTextContent(says);
    if (alsoSays) expect(notice.parentElement).toHaveTextContent(alsoSays);
    else expect(notice.parentElement).not.toHaveTextContent('dbhost:create');
    expect(screen.getByRole('button', { name: 'New database' })).toBeDisabled();
  });

  it('says there is no database host before a create is tried when the list tells it so', async () => {
    stubPanel({
      answer: (method, path) =>
        method === 'GET' && (path === '' || path.startsWith('?'))
          ? json(200, { object: 'list', data: [], meta: { has_database_host: false } })
          : undefined,
    });
    render();
    expect(await screen.findByText('This panel has no database host, so databases cannot be created here.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New database' })).toBeDisabled();
    // The empty list does not then invite to "create one".
    expect(screen.getByText(/keeps the data of plugins, web maps/)).not.toHaveTextContent(/create one/i);
  });

  it('rotates the password after a confirmation and shows the new one', async () => {
    const panel = stubPanel();
    render();
    const item = await details('s1_luckperms');
    fireEvent.click(within(item).getByRole('button', { name: 'Rotate password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate password' });
    expect(panel.writes()).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(panel.writes()).toEqual([{ method: 'POST', path: '/abc/rotate-password', body: undefined }]);
    expect(within(row('s1_luckperms')).getByText('pw-rotated-2')).toBeInTheDocument();
    expect(within(row('s1_luckperms')).getByRole('status')).toHaveTextContent('The password was changed');
  });

  it('deletes only once the database name is typed', async () => {
    const panel = stubPanel();
    render();
    const item = await details('s1_luckperms');
    fireEvent.click(within(item).getByRole('button', { name: 'Delete database' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete database' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /to confirm/ }), { target: { value: 'luckperms' } });
    expect(confirm).toBeDisabled();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /to confirm/ }), { target: { value: 's1_luckperms' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 's1_luckperms' })).toBeNull());
    expect(panel.writes()).toEqual([{ method: 'DELETE', path: '/abc', body: undefined }]);
    expect(screen.getByText('No databases yet')).toBeInTheDocument();
    expect(screen.getByText(/keeps the data of plugins, web maps/)).toBeInTheDocument();
  });

  it('speaks German to an account set to German: count, copy buttons, details and the password controls', async () => {
    stubPanel();
    render({ ...testAccount, language: 'de' });
    await screen.findByRole('list', { name: 'Datenbanken' });
    expect(screen.getByText('1 von 2 belegt')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Neue Datenbank' })).toBeEnabled();
    const item = row('s1_luckperms');
    expect(within(item).getByRole('button', { name: 'Benutzername kopieren: u1_abc' })).toBeInTheDocument();
    fireEvent.click(within(item).getByRole('button', { name: 'Details von s1_luckperms' }));
    expect(within(item).getByRole('button', { name: 'Passwort anzeigen' })).toBeInTheDocument();
    expect(within(item).getByRole('button', { name: 'Passwort erneuern' })).toBeInTheDocument();
    expect(screen.queryByText(/used|Show password|Rotate password/)).toBeNull();
  });
});
