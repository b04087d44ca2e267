// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ActivityLog } from '../../contract/activity';
import { apiError, json, makeEntry, makeServer, renderServerRoutes, serverDocument, stubFetch } from '../../test/server-test-fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ENTRIES = [
  makeEntry({ id: 'a', event: 'server:power.start', timestamp: '2024-05-01T10:00:00Z' }),
  makeEntry({ id: 'b', event: 'server:file.write', properties: { file: '/a.txt' }, timestamp: '2024-05-02T10:00:00Z' }),
  makeEntry({ id: 'c', event: 'server:power.stop', timestamp: '2024-05-03T10:00:00Z' }),
];

function page(entries: ActivityLog[], total = entries.length, current = 1) {
  return json(200, {
    object: 'list',
    data: entries.map((attributes) => ({ object: 'activity_log', attributes })),
    meta: {
      pagination: { total, count: entries.length, per_page: 25, current_page: current, total_pages: Math.max(1, Math.ceil(total / 25)), links: {} },
    },
  });
}

/** A fake activity endpoint honouring filter and sort; records the query of each call. */
function stubPanel(activity?: (url: URL) => Response) {
  const server = serverDocument(makeServer(), { is_server_owner: true, user_permissions: ['*'] });
  return stubFetch((url) => {
    if (url.pathname.endsWith('/activity')) {
      if (activity) return activity(url);
      const filter = url.searchParams.get('filter[event]') ?? '';
      const sorted = [...ENTRIES].filter((e) => e.event.includes(filter));
      sorted.sort((a, b) => a.timestamp.localeCompare(b.timestamp) * (url.searchParams.get('sort') === 'timestamp' ? 1 : -1));
      return page(sorted);
    }
    return json(200, server);
  });
}

function events() {
  return within(screen.getByRole('list', { name: 'Activity entries' }))
    .getAllByRole('button', { name: /^Filter by / })
    .map((b) => b.textContent);
}

function activityCalls(mock: ReturnType<typeof stubFetch>) {
  return mock.mock.calls.map(([u]) => new URL(String(u), 'http://localhost')).filter((u) => u.pathname.endsWith('/activity'));
}

describe('ActivityPage', () => {
  it('asks for 25 entries with actors, newest first', async () => {
    const mock = stubPanel();
    renderServerRoutes('/server/abcd1234/activity');
    await screen.findByRole('list', { name: 'Activity entries' });
    expect(events()).toEqual(['server:power.stop', 'server:file.write', 'server:power.start']);
    const q = activityCalls(mock)[0]?.searchParams;
    expect(q?.get('include')).toBe('actor');
    expect(q?.get('per_page')).toBe('25');
    expect(q?.get('sort')).toBe('-timestamp');
  });

  it('reorders with the oldest-first toggle and keeps it in the URL', async () => {
    stubPanel();
    const { router } = renderServerRoutes('/server/abcd1234/activity');
    await screen.findByRole('list', { name: 'Activity entries' });
    const oldest = screen.getByRole('button', { name: 'Oldest first' });
    expect(oldest).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(oldest);
    await waitFor(() => expect(events()[0]).toBe('server:power.start'));
    expect(screen.getByRole('button', { name: 'Oldest first' })).toHaveAttribute('aria-pressed', 'true');
    expect(router.state.location.search).toBe('?sort=timestamp');
  });

  it('filters by event after typing stops, resetting the page', async () => {
    const mock = stubPanel();
    const { router } = renderServerRoutes('/server/abcd1234/activity?page=2');
    await screen.findByRole('list', { name: 'Activity entries' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter by event' }), { target: { value: 'power' } });
    await waitFor(() => expect(router.state.location.search).toBe('?event=power'));
    await waitFor(() => expect(events()).toEqual(['server:power.stop', 'server:power.start']));
    expect(activityCalls(mock).some((u) => u.searchParams.get('filter[event]') === 'power')).toBe(true);
  });

  it('filters by an event whose name is clicked', async () => {
    stubPanel();
    renderServerRoutes('/server/abcd1234/activity');
    await screen.findByRole('list', { name: 'Activity entries' });
    fireEvent.click(screen.getByRole('button', { name: 'Filter by server:file.write' }));
    await waitFor(() => expect(events()).toEqual(['server:file.write']));
    expect((screen.getByRole('searchbox', { name: 'Filter by event' }) as HTMLInputElement).value).toBe('server:file.write');
  });

  it('says when nothing matches the filter', async () => {
    stubPanel();
    renderServerRoutes('/server/abcd1234/activity?event=nothing');
    expect(await screen.findByText('No events match “nothing”')).toBeInTheDocument();
  });

  it('says when there is no activity', async () => {
    stubPanel(() => page([]));
    renderServerRoutes('/server/abcd1234/activity');
    expect(await screen.findByText('No activity yet')).toBeInTheDocument();
  });

  it('explains a 409 from a suspended server', async () => {
    stubPanel(() => apiError(409, 'This server is currently suspended and the functionality requested is unavailable.'));
    renderServerRoutes('/server/abcd1234/activity');
    expect(await screen.findByRole('heading', { name: 'Server unavailable right now' })).toBeInTheDocument();
    expect(screen.getByText(/currently suspended/)).toBeInTheDocument();
  });

  it('pages through the log', async () => {
    const mock = stubPanel((url) => page(ENTRIES, 60, Number(url.searchParams.get('page') ?? 1)));
    const { router } = renderServerRoutes('/server/abcd1234/activity');
    await screen.findByRole('list', { name: 'Activity entries' });
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Activity pages' })).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(activityCalls(mock).some((u) => u.searchParams.get('page') === '2')).toBe(true));
  });
});
