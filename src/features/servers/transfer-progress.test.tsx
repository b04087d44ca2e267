// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { FakeWebSocket } from '../../test/backups-test-support';
import { apiError, json, makeServer, renderServerRoutes, serverDocument, stubFetch } from '../../test/server-test-fixtures';
import { transferStatusText } from './transfer-progress';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  FakeWebSocket.last = null;
});

const ADMIN = { is_server_owner: true, user_permissions: ['*', 'admin.websocket.errors', 'admin.websocket.install', 'admin.websocket.transfer'] };

/** The panel: the server moving until `moved()` (then on Node Two), and a socket token for whoever asks. */
function stubPanel(meta: { is_server_owner: boolean; user_permissions: string[] }) {
  const state = { transferring: true, node: 'Node One' };
  const fetch = stubFetch((url) => {
    if (url.pathname.endsWith('/websocket')) return json(200, { data: { token: 'jwt', socket: 'ws://node.test/api/servers/x/ws' } });
    if (url.pathname.endsWith('/abcd1234'))
      return json(200, serverDocument(makeServer({ is_transferring: state.transferring, node: state.node }), meta));
    return apiError(404, 'Not found');
  });
  const asked = (suffix: string) => fetch.mock.calls.filter(([input]) => String(input).endsWith(suffix)).length;
  return { state, asked };
}

const banner = () => screen.getByText(/being moved to another node/);

describe('the transfer notice in the server header', () => {
  it('shows what the node says of the transfer as it goes, and reads the server again when it ends', async () => {
    vi.stubGlobal('WebSocket', FakeWebSocket);
    const panel = stubPanel(ADMIN);
    renderServerRoutes('/server/abcd1234/overview', { overview: () => <p>Overview page</p> });
    expect(await screen.findByText(/being moved to another node/)).toBeInTheDocument();
    await waitFor(() => expect(FakeWebSocket.last?.sent).toEqual([JSON.stringify({ event: 'auth', args: ['jwt'] })]));
    const node = FakeWebSocket.last as FakeWebSocket;
    node.frame('auth success');
    // Nothing said yet: the general sentence only.
    expect(banner()).not.toHaveTextContent('Transferring:');
    node.frame('transfer status', 'processing');
    await waitFor(() => expect(banner()).toHaveTextContent('Transferring: sending the archive…'));
    node.frame('transfer status', 'no-such-status');
    node.frame('transfer logs', 'a line for the console, not the banner');
    expect(banner()).toHaveTextContent('Transferring: sending the archive…');

    const before = panel.asked('/abcd1234');
    panel.state.transferring = false;
    panel.state.node = 'Node Two';
    node.frame('transfer status', 'completed');
    // Read again at once, well before the 3 s poll: the banner goes and the new node shows.
    await waitFor(() => expect(screen.getByText('Node Node Two')).toBeInTheDocument(), { timeout: 1000 });
    expect(panel.asked('/abcd1234')).toBeGreaterThan(before);
    expect(screen.queryByText(/being moved to another node/)).toBeNull();
    expect(screen.queryByText(/Transferring:/)).toBeNull();
  });

  it('says a failure, then shows the server usable where it was once the panel says so', async () => {
    vi.stubGlobal('WebSocket', FakeWebSocket);
    const panel = stubPanel(ADMIN);
    renderServerRoutes('/server/abcd1234/overview', { overview: () => <p>Overview page</p> });
    await waitFor(() => expect(FakeWebSocket.last?.sent).toHaveLength(1));
    const node = FakeWebSocket.last as FakeWebSocket;
    node.frame('auth success');
    node.frame('transfer status', 'failure');
    await waitFor(() => expect(banner()).toHaveTextContent('Transferring: failed; the server stays on its node.'));
    panel.state.transferring = false;
    await waitFor(() => expect(screen.queryByText(/being moved to another node/)).toBeNull(), { timeout: 5000 });
    expect(screen.getByText('Node Node One')).toBeInTheDocument();
  });

  it('opens no socket for a subuser, whom the panel would refuse one during a transfer, and keeps the general sentence', async () => {
    vi.stubGlobal('WebSocket', FakeWebSocket);
    const panel = stubPanel({ is_server_owner: false, user_permissions: ['websocket.connect', 'control.console'] });
    renderServerRoutes('/server/abcd1234/overview', { overview: () => <p>Overview page</p> });
    expect(await screen.findByText(/being moved to another node/)).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(panel.asked('/websocket')).toBe(0);
    expect(FakeWebSocket.last).toBeNull();
  });

  it('reads every word Wings has used, and ignores others', () => {
    expect(transferStatusText('starting')?.end).toBeNull();
    expect(transferStatusText('archived')?.end).toBeNull();
    expect(transferStatusText('success')?.end).toBe('success');
    expect(transferStatusText('completed')?.end).toBe('success');
    expect(transferStatusText('failure')?.end).toBe('failure');
    expect(transferStatusText('toString')).toBeNull();
    expect(transferStatusText(undefined)).toBeNull();
  });
});
