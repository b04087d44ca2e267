// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { RequireAuth } from '../../app/require-auth';
import { account, apiError, json, stubFetch, type Call } from '../../test/auth-test-support';
import { renderRoutes } from '../../test/render-routes';
import { ApiKeysSection } from './api-keys-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import { SshKeysSection } from './ssh-keys-section';
import { TwoFactorSection } from './two-factor-section';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A section below RequireAuth over a stubbed panel; `answer` takes every request but GET /account. */
function renderSection(element: React.ReactNode, answer: (call: Call) => Response, me: Record<string, unknown> = {}) {
  document.cookie = 'XSRF-TOKEN=test-token; path=/';
  let user = { ...account.attributes, ...me };
  const calls = stubFetch((call) => {
    if (call.method === 'GET' && call.path === '/api/client/account') return json(200, { object: 'user', attributes: user });
    if (call.method === 'PUT' && call.path === '/api/client/account/email' && (call.body as { password: string }).password === 'right') {
      user = { ...user, email: (call.body as { email: string }).email };
    }
    if (call.path === '/api/client/account/two-factor/disable' && (call.body as { password: string }).password === 'right') {
      user = { ...user, use_totp: false };
    }
    const response = answer(call);
    if (call.method === 'POST' && call.path === '/api/client/account/two-factor' && response.ok) user = { ...user, use_totp: true };
    return response;
  });
  const routes: RouteObject[] = [{ element: <RequireAuth />, children: [{ path: '/account', element }] }];
  return { ...renderRoutes(routes, '/account'), calls };
}

const wrongPassword = () =>
  json(400, { errors: [{ code: 'InvalidPasswordProvidedException', status: '400', detail: 'The password provided was invalid for this account.' }] });

const type = (label: string | HTMLElement, value: string) =>
  fireEvent.change(typeof label === 'string' ? screen.getByLabelText(label) : label, { target: { value } });

describe('password', () => {
  it('puts a wrong current password on its field and says other sessions were signed out after a change', async () => {
    const { calls } = renderSection(<PasswordSection />, (c) =>
      (c.body as { current_password: string }).current_password === 'right' ? new Response(null, { status: 204 }) : wrongPassword(),
    );
    type(await screen.findByLabelText('Current password'), 'wrong');
    type('New password', 'new-password-1');
    type('Confirm new password', 'new-password-1');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The password provided was invalid for this account.')).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');

    type('Current password', 'right');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Every other session of your account was signed out');
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2);
  });

  it('checks the confirmation before sending', async () => {
    const { calls } = renderSection(<PasswordSection />, () => new Response(null, { status: 204 }));
    type(await screen.findByLabelText('Current password'), 'right');
    type('New password', 'new-password-1');
    type('Confirm new password', 'other');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The password confirmation does not match.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });
});

describe('profile', () => {
  it('puts a taken address on the e-mail field, and after a change shows the new address from the refreshed account', async () => {
    renderSection(<ProfileSection />, (c) =>
      (c.body as { email: string }).email === 'taken@example.test'
        ? apiError(422, 'The email has already been taken.', 'email')
        : new Response(null, { status: 204 }),
    );
    type(await screen.findByLabelText('New e-mail address'), 'taken@example.test');
    type('Current password', 'right');
    fireEvent.click(screen.getByRole('button', { name: 'Change e-mail' }));
    expect(await screen.findByText('The email has already been taken.')).toBeInTheDocument();
    expect(screen.getByLabelText('New e-mail address')).toHaveAttribute('aria-invalid', 'true');

    type('New e-mail address', 'new@example.test');
    type('Current password', 'right');
    fireEvent.click(screen.getByRole('button', { name: 'Change e-mail' }));
    expect(await screen.findByRole('status')).toHaveTextContent('new@example.test');
    await waitFor(() => expect(screen.getByText(/with the address/)).toHaveTextContent('new@example.test'));
  });
});

describe('two-factor', () => {
  const tokens = Array.from({ length: 10 }, (_, i) => `token${i}`);
  const panel = (c: Call) => {
    if (c.method === 'GET')
      return json(200, { data: { image_url_data: 'otpauth://totp/Aerie:dana?secret=ABCDEFGHIJKLMNOP', secret: 'ABCDEFGHIJKLMNOP' } });
    const body = c.body as { code: string; password: string };
    if (body.password !== 'right') return wrongPassword();
    if (body.code !== '123456')
      return json(400, { errors: [{ code: 'TwoFactorAuthenticationTokenInvalid', status: '400', detail: 'The token provided is not valid.' }] });
    return json(200, { object: 'recovery_tokens', attributes: { tokens } });
  };

  it('shows the secret in groups of four, a wrong code on its field, then tokens in a dialog only "I saved them" closes', async () => {
    renderSection(
      <main id="main" tabIndex={-1}>
        <TwoFactorSection />
      </main>,
      panel,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Enable' }));
    expect(await screen.findByText('ABCD EFGH IJKL MNOP')).toBeInTheDocument();
    // The whole secret is copied, without the spaces of its groups; the QR code is there to scan.
    expect(screen.getByRole('button', { name: 'Copy secret: ABCDEFGHIJKLMNOP' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'QR code for your authenticator app' })).toBeInTheDocument();
    // "Enable" is gone: the code field, the next step, has the focus.
    await waitFor(() => expect(screen.getByLabelText('Code from the app')).toHaveFocus());
    type('Code from the app', '000000');
    type('Password', 'right');
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('The token provided is not valid.')).toBeInTheDocument();
    expect(screen.getByLabelText('Code from the app')).toHaveAttribute('aria-invalid', 'true');

    type('Code from the app', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(10);
    // The dialog's buttons are alike: Copy looks and is named like Download, not a small inline link.
    const copy = within(dialog).getByRole('button', { name: 'Copy tokens' });
    const download = within(dialog).getByRole('button', { name: 'Download .txt' });
    expect(copy.className).toBe(download.className);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.pointerDown(document.body);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'I saved them' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The "Turn on" button that led here is gone: focus goes to the page, not to <body>.
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('when on, turns off with the password (a wrong one on the field)', async () => {
    const { calls } = renderSection(
      <TwoFactorSection />,
      (c) =>
        (c.body as { password: string }).password === 'right'
          ? new Response(null, { status: 204 })
          : json(400, { errors: [{ code: 'BadRequestHttpException', status: '400', detail: 'The password provided was not valid.' }] }),
      {
        use_totp: true,
      },
    );
    type(await screen.findByLabelText('Password'), 'nope');
    fireEvent.click(screen.getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('The password provided was not valid.')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    type('Password', 'right');
    fireEvent.click(screen.getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/client/account/two-factor/disable')).toHaveLength(2));
    // Off: "Enable" takes the place, and the focus, of "Disable".
    expect(await screen.findByText('Two-factor authentication is off.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Enable' })).toHaveFocus());
  });
});

describe('API keys', () => {
  it('shows the new secret once, and deletes after a confirmation', async () => {
    let keys = [{ identifier: 'old1', description: 'CI', allowed_ips: ['10.0.0.0/8'], last_used_at: null, created_at: '2024-01-01T00:00:00Z' }];
    const { calls } = renderSection(<ApiKeysSection />, (c) => {
      if (c.method === 'GET') return json(200, { object: 'list', data: keys.map((attributes) => ({ object: 'api_key', attributes })) });
      if (c.method === 'DELETE') {
        keys = keys.filter((k) => !c.path.endsWith(k.identifier));
        return new Response(null, { status: 204 });
      }
      const body = c.body as { description: string; allowed_ips: string[] };
      if (body.allowed_ips.includes('bad')) return apiError(422, 'The allowed ips must be valid.', 'allowed_ips');
      const key = {
        identifier: 'new1',
        description: body.description,
        allowed_ips: body.allowed_ips,
        last_used_at: null,
        created_at: new Date().toISOString(),
      };
      keys = [...keys, key];
      return json(200, { object: 'api_key', attributes: key, meta: { secret_token: 'ptlc_new1secretsecret' } });
    });
    expect(await screen.findByText('Only from 10.0.0.0/8', { exact: false })).toBeInTheDocument();
    // Each row: description, identifier, last used and created.
    const listed = within(screen.getByRole('list', { name: 'API keys' })).getByRole('listitem');
    expect(within(listed).getByText('CI')).toBeInTheDocument();
    expect(within(listed).getByText('old1')).toBeInTheDocument();
    expect(listed).toHaveTextContent(/Last used never · Created .+/);
    fireEvent.click(screen.getByRole('button', { name: 'New API key' }));
    type('Description', 'Deploys');
    type('Allowed IPs', '1.2.3.4\nbad');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('The allowed ips must be valid.')).toBeInTheDocument();
    type('Allowed IPs', '1.2.3.4\n\n5.6.7.0/24\n');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByTestId('api-key-secret')).toHaveTextContent('ptlc_new1secretsecret');
    expect(screen.getByText('Copy this key now: it is not shown again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy key: ptlc_new1secretsecret' })).toBeInTheDocument();
    expect(calls.at(-2)?.body).toEqual({ description: 'Deploys', allowed_ips: ['1.2.3.4', '5.6.7.0/24'] });
    expect(await screen.findByText('Deploys')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('api-key-secret')).toBeNull();
    expect(screen.getByRole('button', { name: 'New API key' })).toHaveFocus();

    fireEvent.click(screen.getByRole('button', { name: 'Delete CI' }));
    const dialog = await screen.findByRole('dialog');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('CI')).toBeNull());
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/client/account/api-keys/old1');
  });
});

describe('SSH keys', () => {
  it('puts the parse error on the public key field, lists the fingerprint, removes after a confirmation', async () => {
    let keys: { name: string; fingerprint: string; public_key: string; created_at: string }[] = [];
    const { calls } = renderSection(<SshKeysSection />, (c) => {
      if (c.method === 'GET') return json(200, { object: 'list', data: keys.map((attributes) => ({ object: 'ssh_key', attributes })) });
      if (c.path.endsWith('/remove')) {
        keys = [];
        return new Response(null, { status: 204 });
      }
      const body = c.body as { name: string; public_key: string };
      if (!body.public_key.startsWith('ssh-ed25519')) return apiError(422, 'The public key provided is not valid.', 'public_key');
      const key = { name: body.name, fingerprint: 'abc123', public_key: 'PEM', created_at: new Date().toISOString() };
      keys = [key];
      return json(200, { object: 'ssh_key', attributes: key });
    });
    expect(await screen.findByText('No SSH keys yet')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add SSH key' }));
    type('Name', 'laptop');
    type('Public key', 'not a key');
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('The public key provided is not valid.')).toBeInTheDocument();
    expect(screen.getByLabelText('Public key')).toHaveAttribute('aria-invalid', 'true');
    type('Public key', 'ssh-ed25519 AAAA test');
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('SHA256:abc123')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'SSH keys' })).getByRole('listitem')).toHaveTextContent(/Added .+/);

    fireEvent.click(screen.getByRole('button', { name: 'Remove laptop' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('No SSH keys yet')).toBeInTheDocument();
    expect(calls.find((c) => c.path.endsWith('/remove'))?.body).toEqual({ fingerprint: 'abc123' });
  });
});

// attacks T-XSS-1: every string of these pages comes from the API and must stay text.
describe('hostile strings', () => {
  const payloads = ['<img src=x onerror=alert(1)>', '"><svg/onload=alert(1)>', '<a href="javascript:alert(1)">x</a>'];
  const injected = () => document.querySelectorAll('img, a[href^="javascript"], svg[onload], [onerror], [onload]');

  it('shows API key descriptions and allowed IPs literally', async () => {
    const keys = payloads.map((p, i) => ({
      identifier: `k${i}`,
      description: p,
      allowed_ips: [p],
      last_used_at: null,
      created_at: '2024-01-01T00:00:00Z',
    }));
    renderSection(<ApiKeysSection />, () => json(200, { object: 'list', data: keys.map((attributes) => ({ object: 'api_key', attributes })) }));
    for (const p of payloads) expect(await screen.findByText(p)).toBeInTheDocument();
    expect(injected()).toHaveLength(0);
  });

  it('shows SSH key names literally', async () => {
    const keys = payloads.map((p, i) => ({ name: p, fingerprint: `fp${i}`, public_key: 'PEM', created_at: '2024-01-01T00:00:00Z' }));
    renderSection(<SshKeysSection />, () => json(200, { object: 'list', data: keys.map((attributes) => ({ object: 'ssh_key', attributes })) }));
    for (const p of payloads) expect(await screen.findByText(p)).toBeInTheDocument();
    expect(injected()).toHaveLength(0);
  });

  it('draws the QR code of an otpauth URI holding a hostile e-mail without making markup of it', async () => {
    const uri = `otpauth://totp/Aerie:${payloads[1] ?? ''}?secret=ABCDEFGHIJKLMNOP`;
    renderSection(<TwoFactorSection />, () => json(200, { data: { image_url_data: uri, secret: 'ABCDEFGHIJKLMNOP' } }), { email: payloads[1] });
    fireEvent.click(await screen.findByRole('button', { name: 'Enable' }));
    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    // The code's own svg (the spinner before it has an svg and a path too, which made this racy).
    await waitFor(() => expect(qr.querySelector('svg[shape-rendering="crispEdges"] path')).not.toBeNull());
    expect(qr.querySelectorAll('*')).toHaveLength(2);
    expect(injected()).toHaveLength(0);
  });
});
