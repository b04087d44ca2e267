// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ProcessState } from '../../contract/websocket';
import { ServerPermissionsProvider } from '../../lib/permissions';
import { apiError } from '../../test/server-test-fixtures';
import { PowerBar } from './power-bar';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const UUID = 'abcd1234-5678-4abc-8def-0123456789ab';

function renderBar(status: ProcessState | null, permissions: string[] = ['*'], blocked: string | null = null) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ServerPermissionsProvider permissions={permissions}>
        <PowerBar uuid={UUID} status={status} blocked={blocked} />
      </ServerPermissionsProvider>
    </QueryClientProvider>,
  );
}

const buttons = () => within(screen.getByRole('group', { name: 'Power' })).getAllByRole('button');
const button = (name: string) => screen.getByRole('button', { name });

/** Answers every request with `answer`; returns the power signals the page posted. */
function stubPower(answer: () => Response): { signal: string }[] {
  document.cookie = 'XSRF-TOKEN=t; path=/';
  const signals: { signal: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/power')) signals.push(JSON.parse(String(init?.body)) as { signal: string });
      return Promise.resolve(answer());
    }),
  );
  return signals;
}

describe('PowerBar', () => {
  it('shows each button only with its permission', () => {
    renderBar('offline', ['control.start', 'websocket.connect']);
    expect(buttons().map((b) => b.textContent)).toEqual(['Start']);
    expect(screen.getByRole('group', { name: 'Power' })).toHaveTextContent('Needs control.restart and control.stop permissions');
    cleanup();
    renderBar('offline', ['websocket.connect']);
    expect(screen.queryByRole('group', { name: 'Power' })).not.toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Needs control.start, control.restart and control.stop permissions');
  });

  it('disables Start while running and Stop while offline', () => {
    renderBar('running');
    expect(button('Start')).toBeDisabled();
    expect(button('Stop')).toBeEnabled();
    cleanup();
    renderBar('offline');
    expect(button('Start')).toBeEnabled();
    expect(button('Stop')).toBeDisabled();
  });

  it('turns Stop into Kill while stopping, and kills only once confirmed', async () => {
    const signals = stubPower(() => new Response(null, { status: 204 }));
    renderBar('stopping');
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    await userEvent.click(button('Kill'));
    const dialog = await screen.findByRole('dialog', { name: 'Kill the server?' });
    expect(signals).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Kill' }));
    await waitFor(() => expect(signals).toEqual([{ signal: 'kill' }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps the reason a start was refused on the Start button', async () => {
    stubPower(() => apiError(502, 'Servers cannot start: install bubblewrap (the Debian package bubblewrap).'));
    renderBar('offline');
    await userEvent.click(button('Start'));
    await waitFor(() =>
      expect(button('Start')).toHaveAttribute('title', 'Servers cannot start: install bubblewrap (the Debian package bubblewrap).'),
    );
  });

  it('says why every action is unavailable on a blocked server', () => {
    renderBar('offline', ['*'], 'Unavailable: the server is suspended.');
    for (const b of buttons()) expect(b).toBeDisabled();
    expect(button('Start')).toHaveAttribute('title', 'Unavailable: the server is suspended.');
  });
});
