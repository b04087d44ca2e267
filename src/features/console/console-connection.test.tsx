// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { json, makeServer, renderServerRoutes, serverDocument, stubFetch, withCatalogue } from '../../test/server-test-fixtures';
import { ConsolePage } from './console-page';

/*
 * What the page says about the server from its socket: a lost connection and an offline server.
 * xterm does not render in jsdom, so the terminal is left out; the socket is a stand-in node.
 */
vi.mock('./terminal', () => ({ Terminal: () => null }));

/** A node that accepts any token and says the server is offline. */
class OfflineNode {
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    setTimeout(() => this.onopen?.(), 0);
  }
  send(frame: string) {
    if (!frame.includes('"auth"')) return;
    setTimeout(() => {
      this.onmessage?.({ data: JSON.stringify({ event: 'auth success' }) });
      this.onmessage?.({ data: JSON.stringify({ event: 'status', args: ['offline'] }) });
    }, 0);
  }
  close() {}
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open(permissions: string[], socket: 'refused' | 'offline') {
  const owner = permissions.includes('*');
  stubFetch(
    withCatalogue((url) => {
      if (url.pathname.endsWith('/websocket')) {
        return socket === 'refused'
          ? json(502, { errors: [{ code: 'HttpException', status: '502', detail: 'The node could not be reached.' }] })
          : json(200, { data: { token: 't', socket: 'ws://localhost/socket' } });
      }
      if (url.pathname.endsWith('/resources')) return json(404, {});
      return json(200, serverDocument(makeServer({ server_owner: owner }), { is_server_owner: owner, user_permissions: permissions }));
    }),
  );
  vi.stubGlobal('WebSocket', OfflineNode);
  renderServerRoutes('/server/abcd1234', { '': () => <ConsolePage /> });
}

describe('ConsolePage connection', () => {
  it('with the connection lost, says the state is Unknown, not Offline, and does not offer Start', async () => {
    open(['*'], 'refused');
    const status = await screen.findByRole('status', { name: 'Server status' });
    expect(await within(status).findByText('Unknown')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start' })).toBeDisabled();
    expect(screen.queryByText('Offline')).toBeNull();
  });

  it('tells a user who may start the server to start it', async () => {
    open(['*'], 'offline');
    const input = await screen.findByRole('textbox', { name: 'Console command' });
    await vi.waitFor(() => expect(input).toHaveAccessibleDescription('The server is offline: start it to send commands.'));
  });

  it('does not tell a subuser without control.start to start it', async () => {
    open(['control.console', 'websocket.connect'], 'offline');
    const input = await screen.findByRole('textbox', { name: 'Console command' });
    await vi.waitFor(() => expect(input).toHaveAccessibleDescription('The server is offline: commands can be sent once someone starts it.'));
  });
});
