// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { changeLocale } from '../../lib/i18n/runtime';
import type { Allocation } from '../../contract/network';
import {
  apiError,
  json,
  makeServer,
  renderServerRoutes,
  serverDocument,
  stubFetch,
  testAccount,
  type FetchCall,
} from '../../test/server-test-fixtures';
import { NetworkPage } from './network-page';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  await changeLocale('en');
});

const BASE = '/api/client/servers/abcd1234-5678-4abc-8def-0123456789ab/network/allocations';

type Answer = (method: string, path: string, body: unknown) => Response | undefined;

/** A fake panel holding `allocations`; `answer` may take any request first (a failure). */
function stubPanel({ permissions = ['*'], limit = 3, answer }: { permissions?: string[]; limit?: number | null; answer?: Answer } = {}) {
  let allocations: Allocation[] = [
    { id: 1, ip: '10.0.0.5', ip_alias: 'play.example.test', port: 25565, notes: '', is_default: true },
    { id: 2, ip: '10.0.0.5', ip_alias: '10.0.0.5', port: 25566, notes: 'Query port', is_default: false },
  ];
  const server = serverDocument(makeServer({ feature_limits: { databases: 2, allocations: limit, backups: 0 } }), {
    is_server_owner: permissions.includes('*'),
    user_permissions: permissions,
  });
  const requests: FetchCall[] = [];
  const item = (a: Allocation | undefined) => ({ object: 'allocation', attributes: a });
  stubFetch((url, { method, body }) => {
    if (!url.pathname.startsWith(BASE)) return json(200, server);
    const path = url.pathname.slice(BASE.length);
    requests.push({ method, path, body });
    const early = answer?.(method, path, body);
    if (early) return early;
    const id = Number(path.split('/')[1]);
    if (method === 'GET') return json(200, { object: 'list', data: allocations.map(item) });
    if (method === 'POST' && path === '') {
      const created = { id: 3, ip: '10.0.0.5', ip_alias: '10.0.0.5', port: 25567, notes: '', is_default: false };
      allocations = [...allocations, created];
      return json(200, item(created));
    }
    if (method === 'POST' && path.endsWith('/primary')) {
      allocations = allocations.map((a) => ({ ...a, is_default: a.id === id }));
      return json(200, item(allocations.find((a) => a.id === id)));
    }
    if (method === 'POST') {
      const notes = (body as { notes: string | null }).notes ?? '';
      allocations = allocations.map((a) => (a.id === id ? { ...a, notes } : a));
      return json(200, item(allocations.find((a) => a.id === id)));
    }
    allocations = allocations.filter((a) => a.id !== id);
    return new Response(null, { status: 204 });
  });
  return { requests, writes: () => requests.filter((r) => r.method !== 'GET') };
}

const render = () => renderServerRoutes('/server/abcd1234/network', { network: () => <NetworkPage /> });
const row = (address: string) => screen.getByRole('listitem', { name: address });

describe('NetworkPage', () => {
  it('lists addresses (the alias when set) with copy, the primary marked, and "2 of 3 used"', async () => {
    stubPanel();
    render();
    await screen.findByRole('list', { name: 'Allocations' });
    expect(within(row('play.example.test:25565')).getByText('Primary')).toBeInTheDocument();
    expect(within(row('play.example.test:25565')).getByRole('button', { name: 'Copy: play.example.test:25565' })).toBeInTheDocument();
    expect(within(row('play.example.test:25565')).queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(screen.getByText('2 of 3 used')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add allocation' })).toBeEnabled();
  });

  it('adds an allocation, then says why it cannot add another at the limit', async () => {
    const panel = stubPanel();
    render();
    await screen.findByRole('list', { name: 'Allocations' });
    fireEvent.click(screen.getByRole('button', { name: 'Add allocation' }));
    expect(await screen.findByRole('listitem', { name: '10.0.0.5:25567' })).toBeInTheDocument();
    expect(screen.getByText('3 of 3 used')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add allocation' })).toBeDisabled();
    // "Add" is off now: focus is on the new row rather than lost to <body>.
    await waitFor(() => expect(row('10.0.0.5:25567')).toHaveFocus());
    expect(screen.getByText('The allocation limit of this server has been reached.')).toBeInTheDocument();
    expect(panel.writes()).toEqual([{ method: 'POST', path: '', body: undefined }]);
  });

  it('saves notes after a pause in typing, once, and shows saved or failed', async () => {
    let fail = false;
    const panel = stubPanel({ answer: (method, path) => (fail && method === 'POST' && path === '/2' ? apiError(500, 'Boom') : undefined) });
    render();
    const input = await screen.findByRole('textbox', { name: 'Notes for 10.0.0.5:25566' });
    expect(input).toHaveValue('Query port');
    fireEvent.change(input, { target: { value: 'Query' } });
    fireEvent.change(input, { target: { value: 'Query port 2' } });
    expect(panel.writes()).toEqual([]);
    await waitFor(() => expect(within(row('10.0.0.5:25566')).getByRole('status')).toHaveTextContent('Saved'), { timeout: 3000 });
    expect(panel.writes()).toEqual([{ method: 'POST', path: '/2', body: { notes: 'Query port 2' } }]);

    fail = true;
    fireEvent.change(input, { target: { value: '' } });
    await waitFor(() => expect(within(row('10.0.0.5:25566')).getByRole('status')).toHaveTextContent('Boom'), { timeout: 3000 });
    expect(panel.writes().at(-1)).toEqual({ method: 'POST', path: '/2', body: { notes: null } });
  });

  it('still saves notes typed just before leaving the page', async () => {
    const panel = stubPanel();
    render();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Notes for 10.0.0.5:25566' }), { target: { value: 'Votifier' } });
    cleanup();
    await waitFor(() => expect(panel.writes()).toEqual([{ method: 'POST', path: '/2', body: { notes: 'Votifier' } }]));
  });

  it('makes another allocation primary at once and rolls it back when the panel refuses', async () => {
    let release: (r: Response) => void = () => undefined;
    stubPanel({
      answer: (method, path) => (method === 'POST' && path.endsWith('/primary') ? (new Promise<Response>((r) => (release = r)) as never) : undefined),
    });
    render();
    fireEvent.click(within(await screen.findByRole('listitem', { name: '10.0.0.5:25566' })).getByRole('button', { name: 'Make primary' }));
    await waitFor(() => expect(within(row('10.0.0.5:25566')).getByText('Primary')).toBeInTheDocument());
    expect(within(row('play.example.test:25565')).queryByText('Primary')).toBeNull();
    // Its "Make primary" button went away: the row has the focus.
    expect(row('10.0.0.5:25566')).toHaveFocus();
    release(apiError(400, 'Nope'));
    await waitFor(() => expect(within(row('play.example.test:25565')).getByText('Primary')).toBeInTheDocument());
    expect(within(row('10.0.0.5:25566')).queryByText('Primary')).toBeNull();
  });

  it('deletes after a confirmation naming the address', async () => {
    const panel = stubPanel();
    render();
    fireEvent.click(within(await screen.findByRole('listitem', { name: '10.0.0.5:25566' })).getByRole('button', { name: 'Delete 10.0.0.5:25566' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('10.0.0.5:25566 goes back to the node');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: '10.0.0.5:25566' })).toBeNull());
    expect(panel.writes()).toEqual([{ method: 'DELETE', path: '/2', body: undefined }]);
  });

  it('is read-only with allocation.read alone, and names the permissions it lacks', async () => {
    stubPanel({ permissions: ['allocation.read'] });
    render();
    await screen.findByRole('list', { name: 'Allocations' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByText('Query port')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Make primary' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
    const add = screen.getByRole('button', { name: 'Add allocation' });
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription('Needs allocation.create, allocation.update and allocation.delete permissions');
  });

  it('speaks German to an account set to German: the count, the list, the buttons and the delete confirmation', async () => {
    stubPanel();
    renderServerRoutes('/server/abcd1234/network', { network: () => <NetworkPage /> }, { ...testAccount, language: 'de' });
    await screen.findByRole('list', { name: 'Zuweisungen' });
    expect(screen.getByRole('heading', { name: 'Netzwerk' })).toBeInTheDocument();
    expect(screen.getByText('2 von 3 belegt')).toBeInTheDocument();
    expect(within(row('play.example.test:25565')).getByText('Primär')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Notizen für 10.0.0.5:25566' })).toHaveValue('Query port');
    expect(screen.queryByText(/Add allocation|used|Primary/)).toBeNull();
    fireEvent.click(within(row('10.0.0.5:25566')).getByRole('button', { name: '10.0.0.5:25566 löschen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Zuweisung löschen' });
    expect(dialog).toHaveTextContent('10.0.0.5:25566 geht an den Node zurück');
  });
});
