// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { json, makeServer, renderServerRoutes, serverDocument, stubFetch, withCatalogue } from '../../test/server-test-fixtures';
import { ConsolePage } from './console-page';

/*
 * The page's choices before any socket: who gets a console at all. The live console itself (xterm
 * does not render in jsdom) is covered by e2e/console.spec.ts.
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const paths = (fetch: ReturnType<typeof stubFetch>) => fetch.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname);

describe('ConsolePage', () => {
  it('tells a user without websocket.connect why there is no console, and opens no socket', async () => {
    const fetch = stubFetch(
      withCatalogue(() =>
        json(200, serverDocument(makeServer({ server_owner: false }), { is_server_owner: false, user_permissions: ['file.read'] })),
      ),
    );
    renderServerRoutes('/server/abcd1234', { '': () => <ConsolePage /> });
    expect(await screen.findByText(/may not view this server’s console/)).toBeInTheDocument();
    // Nor any power button: one hint names all three (their descriptions are read out too).
    await waitFor(() =>
      expect(screen.getAllByRole('note').map((n) => n.textContent)).toEqual([
        'Needs control.start, control.restart and control.stop permissions: control.start: Start the server.; control.restart: Restart the server.; control.stop: Stop the server.',
        'Needs the websocket.connect permission',
      ]),
    );
    expect(screen.queryByRole('textbox', { name: 'Console command' })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Power' })).not.toBeInTheDocument();
    expect(paths(fetch).some((p) => p.endsWith('/websocket'))).toBe(false);
  });

  it('says the console is unavailable on a suspended server, with the power buttons disabled', async () => {
    const fetch = stubFetch(() =>
      json(200, serverDocument(makeServer({ status: 'suspended', is_suspended: true }), { is_server_owner: true, user_permissions: ['*'] })),
    );
    renderServerRoutes('/server/abcd1234', { '': () => <ConsolePage /> });
    expect(await screen.findByText('The console is unavailable: the server is suspended.')).toBeInTheDocument();
    for (const name of ['Start', 'Restart', 'Stop']) {
      expect(screen.getByRole('button', { name })).toHaveAttribute('title', 'Unavailable: the server is suspended.');
      expect(screen.getByRole('button', { name })).toBeDisabled();
    }
    expect(paths(fetch).some((p) => p.endsWith('/websocket'))).toBe(false);
  });
});
