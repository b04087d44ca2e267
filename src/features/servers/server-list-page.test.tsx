// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRoutes } from '../../test/render-routes';
import type { Account } from '../../contract/account';
import type { Server } from '../../contract/servers';
import { RequireAuth } from '../../app/require-auth';
import { accountQueries } from '../account/api';
import { ServerListPage } from './server-list-page';
import { json, makeServer, stubFetch, testAccount } from '../../test/server-test-fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function listDocument(servers: Server[], { page = 1, total = servers.length, perPage = 50 } = {}) {
  return {
    object: 'list',
    data: servers.map((attributes) => ({ object: 'server', attributes })),
    meta: {
      pagination: {
        total,
        count: servers.length,
        per_page: perPage,
        current_page: page,
        total_pages: Math.max(1, Math.ceil(total / perPage)),
        links: {},
      },
    },
  };
}

function renderList(path = '/', account: Account = testAccount) {
  const { router } = renderRoutes([{ element: <RequireAuth />, children: [{ path: '/', element: <ServerListPage /> }] }], path, (client) =>
    client.setQueryData(accountQueries.me().queryKey, account),
  );
  return router;
}

const listCalls = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls.map(([input]) => new URL(String(input), 'http://localhost')).filter((u) => u.pathname === '/api/client');

describe('ServerListPage', () => {
  it('shows each server as a link with node, address and limits', async () => {
    stubFetch(() =>
      json(
        200,
        listDocument([
          makeServer(),
          makeServer({
            identifier: 'ffff0000',
            uuid: 'ffff0000-5678-4abc-8def-0123456789ab',
            name: 'Creative',
            description: '',
            limits: { ...makeServer().limits, memory: 0, disk: 1536, cpu: 0 },
          }),
        ]),
      ),
    );
    renderList();
    const link = await screen.findByRole('link', { name: 'Survival' });
    expect(link).toHaveAttribute('href', '/server/abcd1234');
    const row = link.closest('li') as HTMLElement;
    expect(within(row).getByText('Node One')).toBeInTheDocument();
    expect(within(row).getByText('play.example.test:25565')).toBeInTheDocument();
    expect(within(row).getByText('A cosy world')).toBeInTheDocument();
    expect(within(row).getByText('2 GiB')).toBeInTheDocument();
    expect(within(row).getByText('10 GiB')).toBeInTheDocument();
    expect(within(row).getByText('150%')).toBeInTheDocument();
    const other = screen.getByRole('link', { name: 'Creative' }).closest('li') as HTMLElement;
    expect(within(other).getAllByText('Unlimited')).toHaveLength(2);
    expect(within(other).getByText('1.5 GiB')).toBeInTheDocument();
    expect(screen.getByText('2 servers')).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });

  it('marks suspended, installing and transferring servers', async () => {
    stubFetch(() =>
      json(
        200,
        listDocument([
          makeServer({ is_suspended: true, status: 'suspended' }),
          makeServer({ identifier: 'b', uuid: 'bbbb0000-5678-4abc-8def-0123456789ab', name: 'B', status: 'installing', is_installing: true }),
          makeServer({ identifier: 'c', uuid: 'cccc0000-5678-4abc-8def-0123456789ab', name: 'C', is_transferring: true }),
        ]),
      ),
    );
    renderList();
    expect(within((await screen.findByRole('link', { name: 'Survival' })).closest('li') as HTMLElement).getByText('Suspended')).toBeInTheDocument();
    expect(within(screen.getByRole('link', { name: 'B' }).closest('li') as HTMLElement).getByText('Installing')).toBeInTheDocument();
    expect(within(screen.getByRole('link', { name: 'C' }).closest('li') as HTMLElement).getByText('Transferring')).toBeInTheDocument();
  });

  it('searches after a pause, from page 1, keeping the search in the URL', async () => {
    const fetch = stubFetch((url) =>
      json(
        200,
        listDocument(
          url.searchParams.get('filter[*]')
            ? [makeServer()]
            : [makeServer(), makeServer({ identifier: 'x', uuid: 'eeee0000-5678-4abc-8def-0123456789ab', name: 'Other' })],
          { page: 2, total: 120 },
        ),
      ),
    );
    const router = renderList('/?page=2');
    await screen.findByRole('link', { name: 'Other' });
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search servers' }), 'surv');
    // one request for the whole word, not one per key
    await waitFor(() => expect(router.state.location.search).toBe('?q=surv'));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Other' })).toBeNull());
    const searches = listCalls(fetch).filter((u) => u.searchParams.has('filter[*]'));
    expect(searches.map((u) => [u.searchParams.get('filter[*]'), u.searchParams.get('page')])).toEqual([['surv', '1']]);
  });

  it('keeps the page in ?page= and asks for that page', async () => {
    vi.stubGlobal('scrollTo', vi.fn());
    const fetch = stubFetch((url) => json(200, listDocument([makeServer()], { page: Number(url.searchParams.get('page')), total: 60 })));
    const router = renderList();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(listCalls(fetch).at(-1)?.searchParams.get('page')).toBe('2'));
    expect(await screen.findByText(/Page 2 of 2/)).toBeInTheDocument();
  });

  it('shows the last page for a page past the end, replacing the address', async () => {
    stubFetch((url) => {
      const page = Number(url.searchParams.get('page') ?? 1);
      return json(200, listDocument(page > 2 ? [] : [makeServer()], { page, total: 60 }));
    });
    const router = renderList('/?page=7');
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(await screen.findByText(/Page 2 of 2/)).toBeInTheDocument();
  });

  it('lets a root admin show every server on the panel', async () => {
    const fetch = stubFetch(() => json(200, listDocument([makeServer()])));
    const router = renderList('/', { ...testAccount, admin: true });
    const toggle = await screen.findByRole('switch', { name: 'Show all servers' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.setup().click(toggle);
    await waitFor(() => expect(router.state.location.search).toBe('?all=1'));
    expect(screen.getByRole('switch', { name: 'Show all servers' })).toHaveAttribute('aria-checked', 'true');
    await waitFor(() => expect(listCalls(fetch).at(-1)?.searchParams.get('type')).toBe('admin-all'));
  });

  it('names the owner of each server when the panel sends it (to an admin), and nothing otherwise', async () => {
    stubFetch(() =>
      json(
        200,
        listDocument([
          makeServer({ server_owner: false, aerie_owner: { username: 'dana', email: 'dana@example.test' } }),
          makeServer({ identifier: 'b', uuid: 'bbbb0000-5678-4abc-8def-0123456789ab', name: 'B' }),
        ]),
      ),
    );
    renderList('/?all=1', { ...testAccount, admin: true });
    const row = (await screen.findByRole('link', { name: 'Survival' })).closest('li') as HTMLElement;
    expect(within(row).getByText('Owner')).toBeInTheDocument();
    expect(within(row).getByText('dana')).toHaveAttribute('title', 'dana@example.test');
    expect(within(screen.getByRole('link', { name: 'B' }).closest('li') as HTMLElement).queryByText('Owner')).not.toBeInTheDocument();
  });

  it('ignores ?all=1 for everyone else', async () => {
    const fetch = stubFetch(() => json(200, listDocument([makeServer()])));
    renderList('/?all=1');
    await screen.findByRole('link', { name: 'Survival' });
    expect(listCalls(fetch)[0]?.searchParams.has('type')).toBe(false);
  });

  it('says when there are no servers, and when none match', async () => {
    stubFetch(() => json(200, listDocument([])));
    renderList();
    expect(await screen.findByText('No servers yet')).toBeInTheDocument();
    cleanup();
    renderList('/?q=zzz');
    expect(await screen.findByText('No servers match “zzz”')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear search' })).toBeInTheDocument();
  });

  it('explains a failed load', async () => {
    stubFetch(() => json(500, { errors: [{ code: 'HttpException', status: '500', detail: 'The panel broke.' }] }));
    renderList();
    expect(await screen.findByText('The panel broke.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
