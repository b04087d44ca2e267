// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { changeLocale } from '../../lib/i18n/runtime';
import { json, makeServer, renderServerRoutes, serverDocument, stubFetch, testAccount, type FetchCall } from '../../test/server-test-fixtures';
import { SchedulesPage } from './schedules-page';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLocale('en');
});

const BASE = '/api/client/servers/abcd1234-5678-4abc-8def-0123456789ab/schedules';

const nightly = {
  object: 'server_schedule',
  attributes: {
    id: 1,
    name: 'Nightly restart',
    cron: { day_of_week: '*', day_of_month: '*', month: '*', hour: '4', minute: '0' },
    is_active: true,
    is_processing: false,
    only_when_online: false,
    last_run_at: null,
    next_run_at: '2030-01-01T04:00:00+00:00',
    created_at: '2026-01-01T00:00:00+00:00',
    updated_at: null,
    timezone: null,
    effective_timezone: 'Europe/Berlin',
    relationships: { tasks: { object: 'list', data: [] } },
  },
};

function stubPanel(permissions: string[], schedules = [nightly]) {
  const server = serverDocument(makeServer(), { is_server_owner: permissions.includes('*'), user_permissions: permissions });
  const requests: FetchCall[] = [];
  stubFetch((url, { method, body }) => {
    if (!url.pathname.startsWith(BASE)) return json(200, server);
    requests.push({ method, path: url.pathname.slice(BASE.length), body });
    if (method === 'GET') return json(200, { object: 'list', data: schedules });
    return json(200, { ...nightly, attributes: { ...nightly.attributes, ...(body as object) } });
  });
  return { writes: () => requests.filter((r) => r.method !== 'GET') };
}

const render = () => renderServerRoutes('/server/abcd1234/schedules', { schedules: () => <SchedulesPage /> }, testAccount);

describe('SchedulesPage', () => {
  it('switches to German at once: the heading, the times in words and the row’s labels', async () => {
    stubPanel(['*']);
    render();
    const item = await screen.findByRole('listitem', { name: 'Nightly restart' }, { timeout: 5000 });
    await act(() => changeLocale('de'));
    expect(screen.getByRole('heading', { name: 'Zeitpläne' })).toBeInTheDocument();
    expect(item).toHaveTextContent('Täglich um 04:00');
    expect(item).toHaveTextContent('Nächste Ausführung');
    expect(within(item).getByRole('switch', { name: 'Aktiv' })).toBeInTheDocument();
    expect(item).not.toHaveTextContent(/Every day|Next run/);
  });

  it('shows each schedule in words with its zone, and pauses it by posting the whole body', async () => {
    const panel = stubPanel(['*']);
    render();
    const item = await screen.findByRole('listitem', { name: 'Nightly restart' }, { timeout: 5000 });
    expect(item).toHaveTextContent(/Every day at 0?4:00/);
    expect(item).toHaveTextContent('Europe/Berlin');
    fireEvent.click(within(item).getByRole('switch', { name: 'Active' }));
    await waitFor(() => expect(panel.writes()).toHaveLength(1));
    expect(panel.writes()[0]).toEqual({
      method: 'POST',
      path: '/1',
      body: {
        name: 'Nightly restart',
        minute: '0',
        hour: '4',
        day_of_month: '*',
        month: '*',
        day_of_week: '*',
        is_active: false,
        only_when_online: false,
        timezone: null,
      },
    });
  });

  it('a subuser with schedule.read alone sees the list and no edit controls', async () => {
    stubPanel(['schedule.read']);
    render();
    const item = await screen.findByRole('listitem', { name: 'Nightly restart' }, { timeout: 5000 });
    expect(within(item).getByRole('switch', { name: 'Active' })).toBeDisabled();
    expect(within(item).queryByRole('button', { name: 'Edit Nightly restart' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Create schedule' })).toBeDisabled();
  });

  it('says what schedules are for when there are none', async () => {
    stubPanel(['*'], []);
    render();
    expect(await screen.findByText('No schedules yet', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText(/runs tasks at set times/)).toHaveTextContent('Create one');
  });

  it('creates one from a preset, shows the next runs, and stops a bad field before sending', async () => {
    const panel = stubPanel(['*'], []);
    render();
    await screen.findByText('No schedules yet', undefined, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create schedule' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Restart every day at 04:00' } });
    expect(within(within(dialog).getByRole('region', { name: 'Next runs' })).getAllByRole('listitem')).toHaveLength(5);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Hour' }), { target: { value: '25' } });
    expect(await within(dialog).findByText('The hour field is not a valid cron value: "25".')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(panel.writes()).toEqual([]);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Hour' }), { target: { value: '4' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(panel.writes()).toHaveLength(1));
    expect(panel.writes()[0]?.body).toMatchObject({ name: 'Restart every day at 04:00', minute: '0', hour: '4', timezone: null });
  });
});
