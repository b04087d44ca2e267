// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError, json, makeServer, renderServerRoutes, serverDocument, stubFetch } from '../../test/server-test-fixtures';
import { toast } from '../../components/ui/toast';
import { ServerSettingsPage } from './server-settings-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A panel whose rename really renames: the detail answers with the saved name afterwards. */
function stubPanel(permissions = ['*'], rename?: () => Response) {
  let server = makeServer({ name: 'Survival', description: 'Main world' });
  // The requests as sent (the stub's handler sees only the URL).
  const sent = () => fetch.mock.calls as unknown as [RequestInfo | URL, RequestInit | undefined][];
  const fetch = stubFetch((url) => {
    if (url.pathname.endsWith('/settings/reinstall')) return new Response(null, { status: 204 });
    if (url.pathname.endsWith('/settings/rename')) {
      if (rename) return rename();
      const body = JSON.parse(String(sent().at(-1)?.[1]?.body)) as { name: string; description: string };
      server = { ...server, name: body.name, description: body.description };
      return new Response(null, { status: 204 });
    }
    return json(200, serverDocument(server, { is_server_owner: permissions.includes('*'), user_permissions: permissions }));
  });
  return sent;
}

async function open() {
  renderServerRoutes('/server/abcd1234/settings', { settings: () => <ServerSettingsPage /> });
  await screen.findByRole('heading', { level: 1 });
}

const card = (name: string) => within(screen.getByRole('region', { name }));

describe('ServerSettingsPage', () => {
  it('renames the server and the page header shows the new name at once', async () => {
    const sent = stubPanel();
    await open();
    const name = await screen.findByLabelText('Server name');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    fireEvent.change(name, { target: { value: 'Creative' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Creative'));
    // The form holds the saved values, Save is off again, and focus is on the name, not lost to <body>.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    expect(screen.getByLabelText('Server name')).toHaveValue('Creative');
    expect(screen.getByLabelText('Server name')).toHaveFocus();
    const post = sent().find(([input]) => String(input).endsWith('/settings/rename'));
    expect(post?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ name: 'Creative', description: '' });
  });

  it('refuses a blank name on its field without asking the server', async () => {
    const sent = stubPanel();
    await open();
    fireEvent.change(await screen.findByLabelText('Server name'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The name field is required.')).toBeInTheDocument();
    expect(sent().some(([input]) => String(input).endsWith('/settings/rename'))).toBe(false);
  });

  it("shows the server's refusal", async () => {
    stubPanel(['*'], () => apiError(409, 'This server is currently suspended and the functionality requested is unavailable.'));
    await open();
    fireEvent.change(await screen.findByLabelText('Server name'), { target: { value: 'Creative' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/currently suspended/)).toBeInTheDocument();
  });

  it('shows SFTP and debug information with copy buttons', async () => {
    stubPanel();
    await open();
    expect(card('SFTP').getByRole('button', { name: 'Copy username: dana.abcd1234' })).toBeInTheDocument();
    const debug = card('Debug information');
    expect(debug.getByRole('button', { name: /^Copy node: / })).toBeInTheDocument();
    expect(debug.getByRole('button', { name: /^Copy server UUID: [0-9a-f-]{36}$/ })).toBeInTheDocument();
  });

  it('hides the rename form from a subuser without settings.rename', async () => {
    stubPanel(['settings.reinstall']);
    await open();
    await screen.findByRole('region', { name: 'Debug information' });
    expect(screen.queryByLabelText('Server name')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Name and description' })).toHaveTextContent('Needs the settings.rename permission');
    expect(screen.getByRole('button', { name: 'Reinstall server' })).toBeInTheDocument();
  });

  it('reinstalls only after a confirmation that says what happens', async () => {
    const sent = stubPanel();
    await open();
    fireEvent.click(await screen.findByRole('button', { name: 'Reinstall server' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/server is stopped/)).toBeInTheDocument();
    // A panel that shows installs to nobody but its admins (the reference's owners): nothing promised.
    expect(dialog.getByText(/install script runs again/)).toHaveTextContent('Its output is not shown to you.');
    expect(dialog.getByText(/Other files stay/)).toBeInTheDocument();
    const reinstalls = () => sent().filter(([input]) => String(input).endsWith('/settings/reinstall'));
    expect(reinstalls()).toEqual([]);
    fireEvent.click(dialog.getByRole('button', { name: 'Reinstall' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(reinstalls().map(([, init]) => init?.method)).toEqual(['POST']);
  });

  it("promises the install's output in the console to whoever will see it there", async () => {
    stubPanel(['*', 'admin.websocket.install']);
    await open();
    fireEvent.click(await screen.findByRole('button', { name: 'Reinstall server' }));
    expect(within(await screen.findByRole('dialog')).getByText(/install script runs again/)).toHaveTextContent(
      'Its output shows in the console as it runs, and stays there if it fails.',
    );
  });

  // Issue 22 #7: "Its output is in the console" was said to owners whose console showed nothing.
  it.each([
    {
      who: 'an owner the panel shows installs to',
      owner: true,
      permissions: ['*', 'admin.websocket.install'],
      note: 'Its output is at the end of the console.',
    },
    {
      who: 'an owner the panel does not show installs to',
      owner: true,
      permissions: ['*'],
      note: 'Its output is shown only to the panel’s administrators: ask one of them for it.',
    },
    {
      who: 'a subuser who may reinstall',
      owner: false,
      permissions: ['settings.reinstall'],
      note: 'Its output is not shown to you: ask the server’s owner.',
    },
  ])('after a failed reinstall, tells $who where its output is', async ({ owner, permissions, note }) => {
    let server = makeServer({ name: 'Survival', server_owner: owner });
    stubFetch((url) => {
      if (url.pathname.endsWith('/settings/reinstall')) {
        server = { ...server, status: 'installing' };
        return new Response(null, { status: 204 });
      }
      const answer = json(200, serverDocument(server, { is_server_owner: owner, user_permissions: permissions }));
      if (server.status === 'installing') server = { ...server, status: 'reinstall_failed' };
      return answer;
    });
    const said = vi.spyOn(toast, 'error');
    await open();
    fireEvent.click(await screen.findByRole('button', { name: 'Reinstall server' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reinstall' }));
    await waitFor(() => expect(said).toHaveBeenCalledWith(`Reinstall failed: the install script did not finish. ${note}`), { timeout: 5000 });
    expect(await screen.findByText(/The last reinstall of this server failed/)).toHaveTextContent(note);
  });

  it('says the reinstall started, shows it installing, and reports how it ended once the status leaves installing', async () => {
    let server = makeServer({ name: 'Survival' });
    let details = 0;
    stubFetch((url) => {
      if (url.pathname.endsWith('/settings/reinstall')) {
        server = { ...server, status: 'installing' };
        return new Response(null, { status: 204 });
      }
      details += 1;
      const answer = json(200, serverDocument(server, { is_server_owner: true, user_permissions: ['*'] }));
      // The node reports the failed script after the page saw it installing once.
      if (server.status === 'installing') server = { ...server, status: 'reinstall_failed' };
      return answer;
    });
    const said = { success: vi.spyOn(toast, 'success'), error: vi.spyOn(toast, 'error') };
    await open();
    fireEvent.click(await screen.findByRole('button', { name: 'Reinstall server' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reinstall' }));
    expect(await screen.findByText('This server is being installed; most actions are unavailable until it finishes.')).toBeInTheDocument();
    expect(said.success).not.toHaveBeenCalled();
    // Polled while installing: the failure is said once it shows.
    await waitFor(() => expect(said.error).toHaveBeenCalledWith(expect.stringMatching(/^Reinstall failed: /)), {
      timeout: 5000,
    });
    expect(said.success).not.toHaveBeenCalled();
    expect(await screen.findByText(/The last reinstall of this server failed/)).toBeInTheDocument();
    expect(details).toBeGreaterThanOrEqual(3);
  });

  it('hides reinstall from a subuser without settings.reinstall', async () => {
    stubPanel(['settings.rename']);
    await open();
    await screen.findByLabelText('Server name');
    expect(screen.queryByRole('button', { name: 'Reinstall server' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Reinstall' })).toHaveTextContent('Needs the settings.reinstall permission');
  });
});
