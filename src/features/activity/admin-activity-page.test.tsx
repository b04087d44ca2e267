// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderRoutes } from '../../test/render-routes';
import { json, makeEntry, stubFetch } from '../../test/server-test-fixtures';
import { AdminActivityPage } from './activity-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ENTRIES = [
  makeEntry({ id: 'a', event: 'admin:node.delete', properties: { name: 'wings-1' } }),
  makeEntry({ id: 'b', event: 'admin:allocation.create', properties: { summary: '10.0.0.5:25565-25570', node: 'wings-1' } }),
  makeEntry({ id: 'c', event: 'admin:location.create', properties: { short: 'eu' } }),
];

describe('AdminActivityPage', () => {
  it('reads the admin log newest first as sentences, and filters it by event through the URL', async () => {
    const mock = stubFetch((url) => {
      const filter = url.searchParams.get('filter[event]') ?? '';
      const data = ENTRIES.filter((e) => e.event.includes(filter)).map((attributes) => ({ object: 'activity_log', attributes }));
      return json(200, {
        object: 'list',
        data,
        meta: { pagination: { total: data.length, count: data.length, per_page: 25, current_page: 1, total_pages: 1, links: {} } },
      });
    });
    const { router } = renderRoutes([{ path: '/admin/activity', element: <AdminActivityPage /> }], '/admin/activity');
    const log = await screen.findByRole('list', { name: 'Activity entries' });
    expect(
      within(log)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringContaining('Deleted the node wings-1'),
      expect.stringContaining('Added the allocations 10.0.0.5:25565-25570'),
      expect.stringContaining('Created the location eu'),
    ]);
    const first = new URL(String(mock.mock.calls[0]?.[0]), 'http://localhost');
    expect(first.pathname).toBe('/api/application/activity');
    expect(first.searchParams.get('sort')).toBe('-timestamp');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter by event' }), { target: { value: 'node.' } });
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Activity entries' })).getAllByRole('listitem')).toHaveLength(1));
    expect(router.state.location.search).toBe('?event=node.');
  });
});
