// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { renderRoutes } from '../../test/render-routes';
import { RequireAuth } from '../../app/require-auth';
import { useSlashFocus } from '../../lib/use-slash-focus';
import { useShortcuts, type ShortcutGroup } from '../../lib/shortcuts';
import { accountQueries } from '../account/api';
import { stubFetch, json, testAccount } from '../../test/server-test-fixtures';
import { PaletteHost } from './palette-host';

const CONSOLE_KEYS: ShortcutGroup = { title: 'Console', shortcuts: [{ keys: [['Mod', 'F']], description: 'Search the output' }] };

function ConsoleLike() {
  useShortcuts(CONSOLE_KEYS);
  return <textarea aria-label="Terminal input" />;
}

function ListLike() {
  const ref = useRef<HTMLInputElement>(null);
  useSlashFocus(ref);
  return <input aria-label="Search" ref={ref} />;
}

/** A page that can switch from one set of keys to another, as navigating does. */
function Page() {
  const [which, setWhich] = useState<'console' | 'list'>('console');
  return (
    <>
      <PaletteHost />
      <button type="button" onClick={() => setWhich('list')}>
        Go to the list
      </button>
      {which === 'console' ? <ConsoleLike /> : <ListLike />}
    </>
  );
}

function renderPage() {
  stubFetch(() => json(404, { errors: [] }));
  renderRoutes([{ element: <RequireAuth />, children: [{ path: '*', element: <Page /> }] }], '/', (client) =>
    client.setQueryData(accountQueries.me().queryKey, testAccount),
  );
}

const sheet = () => screen.findByRole('dialog', { name: 'Keyboard shortcuts' });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the "?" shortcut sheet', () => {
  it('lists the shortcuts the page on screen declares, and the palette’s', async () => {
    renderPage();
    fireEvent.keyDown(document.body, { key: '?' });
    const dialog = await sheet();
    const consoleGroup = within(dialog).getByRole('region', { name: 'Console' });
    expect(consoleGroup).toHaveTextContent('Search the output');
    expect(consoleGroup).toHaveTextContent('Ctrl');
    expect(within(dialog).getByRole('region', { name: 'Everywhere' })).toHaveTextContent('Search or jump to a server, a page or an action');
    expect(within(dialog).queryByText('Focus the search box')).not.toBeInTheDocument();
  });

  it('follows the page: a page that went away takes its keys with it', async () => {
    renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Go to the list' }));
    fireEvent.keyDown(document.body, { key: '?' });
    const dialog = await sheet();
    expect(within(dialog).getByText('Focus the search box')).toBeInTheDocument();
    expect(within(dialog).queryByRole('region', { name: 'Console' })).not.toBeInTheDocument();
  });

  it('is not opened by "?" typed into a field or the terminal', async () => {
    renderPage();
    const terminal = screen.getByRole('textbox', { name: 'Terminal input' });
    terminal.focus();
    fireEvent.keyDown(terminal, { key: '?' });
    // Give the lazy sheet the time it would take to show.
    await new Promise((r) => setTimeout(r, 100));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    fireEvent.keyDown(document.body, { key: '?' });
    expect(await sheet()).toBeInTheDocument();
  });
});
