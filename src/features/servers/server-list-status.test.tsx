// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import { renderRoutes } from '../../test/render-routes';
import { RequireAuth } from '../../app/require-auth';
import { accountQueries } from '../account/api';
import { ServerListPage } from './server-list-page';
import { json, makeServer, stubFetch, testAccount } from '../../test/server-test-fixtures';

/*
 * The list's live status. jsdom has no IntersectionObserver: this one lets the test say which
 * rows are on screen.
 */
const observed = new Map<Element, (entries: { isIntersecting: boolean }[]) => void>();
class TestObserver {
  constructor(private readonly callback: (entries: { isIntersecting: boolean }[]) => void) {}
  observe(el: Element) {
    observed.set(el, this.callback);
  }
  disconnect() {}
}

function show(name: string, onScreen = true) {
  const row = screen.getByRole('link', { name }).closest('li');
  const callback = row && observed.get(row);
  if (!callback) throw new Error(`no observed row for ${name}`);
  act(() => callback([{ isIntersecting: onScreen }]));
}

const MiB = 1024 * 1024;
const stats = (state: string) => ({
  object: 'stats',
  attributes: {
    current_state: state,
    is_suspended: false,
    resources: {
      memory_bytes: state === 'running' ? 300 * MiB : 0,
      cpu_absolute: state === 'running' ? 12.5 : 0,
      disk_bytes: 40 * MiB,
      network_rx_bytes: 0,
      network_tx_bytes: 0,
      uptime: 0,
    },
  },
});

/** The card's figures as "term: value" lines, as a screen reader reads the description list. */
function figures(row: HTMLElement): string[] {
  return [...row.querySelectorAll('dl > div')].map((d) => `${d.querySelector('dt')?.textContent ?? ''}: ${d.querySelector('dd')?.textContent ?? ''}`);
}

const servers = [
  makeServer(),
  makeServer({ identifier: 'ffff0000', uuid: 'ffff0000-5678-4abc-8def-0123456789ab', name: 'Creative', server_owner: false }),
  makeServer({ identifier: 'eeee0000', uuid: 'eeee0000-5678-4abc-8def-0123456789ab', name: 'Frozen', status: 'suspended', is_suspended: true }),
];

beforeEach(() => {
  observed.clear();
  vi.stubGlobal('IntersectionObserver', TestObserver);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function render(resources = (url: URL) => json(200, stats(url.pathname.includes('abcd') ? 'running' : 'offline'))) {
  const fetch = stubFetch((url) => {
    if (url.pathname.endsWith('/resources')) return resources(url);
    return json(200, {
      object: 'list',
      data: servers.map((attributes) => ({ object: 'server', attributes })),
      meta: { pagination: { total: 3, count: 3, per_page: 50, current_page: 1, total_pages: 1, links: {} } },
    });
  });
  renderRoutes([{ element: <RequireAuth />, children: [{ path: '/', element: <ServerListPage /> }] }], '/', (client) =>
    client.setQueryData(accountQueries.me().queryKey, testAccount),
  );
  return () => fetch.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname).filter((p) => p.endsWith('/resources'));
}

describe('server list live status', () => {
  it('asks only for the rows on screen and shows their state', async () => {
    const resourceCalls = render();
    await screen.findByRole('link', { name: 'Survival' });
    expect(resourceCalls()).toEqual([]);

    show('Survival');
    const row = screen.getByRole('link', { name: 'Survival' }).closest('li') as HTMLElement;
    expect(await within(row).findByText('Running')).toBeInTheDocument();
    expect(resourceCalls()).toEqual([`/api/client/servers/${servers[0]?.uuid}/resources`]);
  });

  it('says the node is unreachable when resources answers as a panel does for a dead node (502), and not for the others', async () => {
    // Pterodactyl's answer when Wings does not answer: a 502 error document, no field of ours.
    const down = { errors: [{ code: 'HttpException', status: '502', detail: 'Bad Gateway' }] };
    render((url) => (url.pathname.includes('ffff') ? json(502, down) : json(200, stats('offline'))));
    await screen.findByRole('link', { name: 'Creative' });
    show('Creative');
    show('Survival');
    const dead = screen.getByRole('link', { name: 'Creative' }).closest('li') as HTMLElement;
    expect(await within(dead).findByText('Node unreachable')).toBeInTheDocument();
    const live = screen.getByRole('link', { name: 'Survival' }).closest('li') as HTMLElement;
    expect(await within(live).findByText('Offline')).toBeInTheDocument();
    expect(within(live).queryByText('Node unreachable')).toBeNull();
  });

  it('shows a running server’s usage against its limits, and a stopped one’s limits named as limits', async () => {
    render();
    await screen.findByRole('link', { name: 'Survival' });
    const survival = screen.getByRole('link', { name: 'Survival' }).closest('li') as HTMLElement;
    const creative = screen.getByRole('link', { name: 'Creative' }).closest('li') as HTMLElement;
    // Before its state is known a card shows limits, never a figure that reads as usage.
    expect(figures(survival)).toEqual(['Memory limit: 2 GiB', 'Disk limit: 10 GiB', 'CPU limit: 150%']);

    show('Survival');
    show('Creative');
    expect(await within(survival).findByText('Running')).toBeInTheDocument();
    expect(figures(survival)).toEqual(['Memory: 300 MiB of 2 GiB', 'Disk: 40 MiB of 10 GiB', 'CPU: 12.5% of 150%']);
    expect(await within(creative).findByText('Offline')).toBeInTheDocument();
    expect(figures(creative)).toEqual(['Memory limit: 2 GiB', 'Disk limit: 10 GiB', 'CPU limit: 150%']);
  });

  it('says a server shared with the user is shared, in the owner’s place', async () => {
    render();
    const creative = (await screen.findByRole('link', { name: 'Creative' })).closest('li') as HTMLElement;
    expect(within(creative).getByText('shared with you')).toBeInTheDocument();
    const survival = screen.getByRole('link', { name: 'Survival' }).closest('li') as HTMLElement;
    expect(within(survival).queryByText('shared with you')).toBeNull();
  });

  it('does not poll a suspended server, which keeps its badge', async () => {
    const resourceCalls = render();
    await screen.findByRole('link', { name: /Frozen/ });
    show('Frozen');
    show('Creative');
    const creative = screen.getByRole('link', { name: 'Creative' }).closest('li') as HTMLElement;
    expect(await within(creative).findByText('Offline')).toBeInTheDocument();
    const frozen = screen.getByRole('link', { name: 'Frozen' }).closest('li') as HTMLElement;
    expect(within(frozen).getByText('Suspended')).toBeInTheDocument();
    expect(resourceCalls().some((p) => p.includes('eeee0000'))).toBe(false);
  });

  it('stops asking while the tab is hidden', async () => {
    const resourceCalls = render();
    await screen.findByRole('link', { name: 'Survival' });
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    show('Survival');
    await new Promise((r) => setTimeout(r, 50));
    expect(resourceCalls()).toEqual([]);
  });
});
