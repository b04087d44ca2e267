// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Location } from '../../contract/locations';
import { changeLocale } from '../../lib/i18n/runtime';
import { renderRoutes } from '../../test/render-routes';
import { json, stubFetch, type FetchCall } from '../../test/server-test-fixtures';
import { AdminLocationsPage } from './admin-locations-page';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLocale('en');
});

const location = (id: number, short: string, long: string | null, nodes: number): Location => ({
  id,
  short,
  long,
  created_at: '2026-01-01T00:00:00+00:00',
  updated_at: '2026-01-01T00:00:00+00:00',
  relationships: { nodes: { object: 'list', data: Array.from({ length: nodes }, (_, i) => ({ object: 'node', attributes: { id: i + 1 } })) } },
});

const refusal = (status: number, detail: string, field?: string) =>
  json(status, {
    errors: [
      {
        code: status === 422 ? 'ValidationException' : 'DisplayException',
        status: String(status),
        detail,
        ...(field ? { meta: { source_field: field } } : {}),
      },
    ],
  });

/** A fake application API: "eu" holds two nodes, "us" none. */
function stubPanel() {
  let locations = [location(1, 'eu', 'Frankfurt', 2), location(2, 'us', null, 0)];
  const calls: FetchCall[] = [];
  stubFetch((url, call) => {
    calls.push(call);
    const { method, body } = call;
    const id = Number(url.pathname.split('/')[4]);
    const found = locations.find((l) => l.id === id);
    if (method === 'GET') {
      const short = url.searchParams.get('filter[short]') ?? '';
      const data = locations.filter((l) => l.short.includes(short)).map((attributes) => ({ object: 'location', attributes }));
      return json(200, {
        object: 'list',
        data,
        meta: { pagination: { total: data.length, count: data.length, per_page: 50, current_page: 1, total_pages: 1, links: {} } },
      });
    }
    const b = body as { short: string; long?: string | null };
    if (method === 'POST') {
      if (locations.some((l) => l.short === b.short)) return refusal(422, 'The short code has already been taken.', 'short');
      const made = location(3, b.short, b.long ?? null, 0);
      locations = [...locations, made];
      return json(201, { object: 'location', attributes: made, meta: { resource: 'http://panel.test/api/application/locations/3' } });
    }
    if (!found) return refusal(404, 'The requested resource does not exist on this server.');
    if (method === 'PATCH') {
      const changed = { ...found, short: b.short, long: b.long ?? null };
      locations = locations.map((l) => (l.id === id ? changed : l));
      return json(200, { object: 'location', attributes: changed });
    }
    if (id === 1) return refusal(400, 'Cannot delete a location that has active nodes attached to it.');
    locations = locations.filter((l) => l.id !== id);
    return new Response(null, { status: 204 });
  });
  return { writes: () => calls.filter((c) => c.method !== 'GET') };
}

const render = () => renderRoutes([{ path: '/admin/locations', element: <AdminLocationsPage /> }], '/admin/locations');
const items = () => within(screen.getByRole('list', { name: 'Locations' })).getAllByRole('listitem');

describe('AdminLocationsPage', () => {
  it('lists locations with their description and node count', async () => {
    stubPanel();
    render();
    const eu = await screen.findByRole('listitem', { name: 'eu' });
    expect(eu).toHaveTextContent('Frankfurt · 2 nodes');
    expect(screen.getByRole('listitem', { name: 'us' })).toHaveTextContent('No description · 0 nodes');
    // Each name and description is isolated (<bdi>), so a right-to-left override in one stays inside it.
    expect([...eu.querySelectorAll('bdi')].map((b) => b.textContent)).toEqual(['eu', 'Frankfurt']);
  });

  it('counts the nodes with each language’s plural forms', async () => {
    stubPanel();
    render();
    const eu = await screen.findByRole('listitem', { name: 'eu' });
    await act(() => changeLocale('pl'));
    expect(eu).toHaveTextContent('Frankfurt · 2 węzły');
    expect(screen.getByRole('listitem', { name: 'us' })).toHaveTextContent('Brak opisu · 0 węzłów');
    expect(screen.getByRole('heading', { name: 'Lokalizacje' })).toBeInTheDocument();
  });

  it('creates one, putting the panel’s refusal under its field', async () => {
    const panel = stubPanel();
    render();
    await screen.findByRole('list', { name: 'Locations' });
    fireEvent.click(screen.getByRole('button', { name: 'Create location' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create location' });
    fireEvent.change(within(dialog).getByLabelText('Short code'), { target: { value: 'eu' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create location' }));
    expect(await within(dialog).findByText('The short code has already been taken.')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Short code'), { target: { value: 'ap' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create location' }));
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(panel.writes().at(-1)?.body).toEqual({ short: 'ap', long: null });
  });

  it('edits one', async () => {
    stubPanel();
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit us' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit location' });
    expect(within(dialog).getByLabelText('Short code')).toHaveValue('us');
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Virginia' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'us' })).toHaveTextContent('Virginia'));
  });

  it('deletes an empty one, and shows why one with nodes cannot be deleted', async () => {
    stubPanel();
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete eu' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete location' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('Cannot delete a location that has active nodes attached to it.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole('button', { name: 'Delete us' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete location' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(items()).toHaveLength(1));
  });
});
