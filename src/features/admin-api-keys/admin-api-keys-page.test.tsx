// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ApplicationKey } from '../../contract/admin-api-keys';
import { changeLocale } from '../../lib/i18n/runtime';
import { renderRoutes } from '../../test/render-routes';
import { json, stubFetch, type FetchCall } from '../../test/server-test-fixtures';
import { AdminApiKeysPage } from './admin-api-keys-page';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLocale('en');
});

const key = (identifier: string, description: string, permissions: ApplicationKey['permissions']): ApplicationKey => ({
  identifier,
  description,
  permissions,
  allowed_ips: [],
  last_used_at: null,
  created_at: '2026-01-01T00:00:00+00:00',
});

function stubPanel() {
  let keys = [key('AAAAAAAAAAAAAAAA', 'WHMCS', { servers: 'rw', users: 'r' })];
  const calls: FetchCall[] = [];
  stubFetch((url, call) => {
    calls.push(call);
    if (call.method === 'GET') return json(200, { object: 'list', data: keys.map((k) => ({ object: 'api_key', attributes: k })) });
    if (call.method === 'POST') {
      const body = call.body as { description: string; permissions: ApplicationKey['permissions'] };
      const permissions = Object.fromEntries(Object.entries(body.permissions).filter(([, a]) => a !== 'none'));
      const made = key('BBBBBBBBBBBBBBBB', body.description, permissions);
      keys = [...keys, made];
      return json(201, { object: 'api_key', attributes: made, meta: { secret_token: 'ptla_BBBBBBBBBBBBBBBBsecretsecretsecretsecretsecretse' } });
    }
    keys = keys.filter((k) => !url.pathname.endsWith(k.identifier));
    return new Response(null, { status: 204 });
  });
  return calls;
}

describe('AdminApiKeysPage', () => {
  it('says what each key may do, where from and when it was used in the chosen language', async () => {
    stubPanel();
    renderRoutes([{ path: '/admin/api-keys', element: <AdminApiKeysPage /> }], '/admin/api-keys');
    const list = await screen.findByRole('list', { name: 'Application keys' });
    await act(() => changeLocale('de'));
    expect(within(list).getByText('Benutzer: lesen · Server: lesen & schreiben')).toBeInTheDocument();
    expect(within(list).getByText(/Von jeder Adresse · Nie verwendet · Erstellt/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Neuer Schlüssel' })).toBeInTheDocument();
  });

  it('lists what each key may do, creates one with per-resource grants and shows its secret once, revokes after confirming', async () => {
    const calls = stubPanel();
    renderRoutes([{ path: '/admin/api-keys', element: <AdminApiKeysPage /> }], '/admin/api-keys');
    const list = await screen.findByRole('list', { name: 'Application keys' });
    expect(within(list).getByText('Users: read · Servers: read & write')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'New key' }));
    const dialog = await screen.findByRole('dialog', { name: 'New application key' });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Reporting' } });
    fireEvent.change(within(dialog).getByLabelText('Servers'), { target: { value: 'r' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await screen.findByTestId('application-key-secret')).toHaveTextContent('ptla_BBBBBBBBBBBBBBBB');
    const created = calls.find((c) => c.method === 'POST');
    expect(created?.body).toMatchObject({ description: 'Reporting', permissions: { servers: 'r', users: 'none' }, allowed_ips: [] });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('application-key-secret')).toBeNull();

    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Reporting' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke application key' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path.endsWith('/api/application/api-keys/BBBBBBBBBBBBBBBB'))).toBe(true));
    await waitFor(() => expect(screen.queryByText('Reporting')).toBeNull());
  });
});
