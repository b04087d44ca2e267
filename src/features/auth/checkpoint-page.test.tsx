// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { account, apiError, json, loginUser, renderAuth, stubFetch } from '../../test/auth-test-support';
import { readPendingLogin, savePendingLogin } from './pending-login';

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const signedOut = () => apiError(401, 'Unauthenticated.');

describe('CheckpointPage', () => {
  it('sends the user back to sign-in when there is no pending login', async () => {
    stubFetch(signedOut);
    const { router } = renderAuth('/auth/login/checkpoint?redirect=%2Fserver%2Fx');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?redirect=%2Fserver%2Fx');
    expect(screen.getByRole('status').textContent).toBe('Please sign in again to continue.');
  });

  it('survives a reload while the token is valid, with the code field ready', async () => {
    savePendingLogin('tok', null);
    stubFetch(signedOut);
    renderAuth('/auth/login/checkpoint');
    const field = await screen.findByLabelText('Authentication code');
    expect(document.activeElement).toBe(field);
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAttribute('maxlength', '6');
  });

  it('shows a wrong code on the field', async () => {
    savePendingLogin('tok', null);
    const calls = stubFetch((c) =>
      c.path === '/auth/login/checkpoint' ? apiError(400, 'The two-factor authentication token was invalid.', 'authentication_code') : signedOut(),
    );
    renderAuth('/auth/login/checkpoint');
    // Six digits submit by themselves.
    await userEvent.setup().type(await screen.findByLabelText('Authentication code'), '123 456');
    expect(await screen.findByText('The two-factor authentication token was invalid.')).toBeInTheDocument();
    expect(screen.getByLabelText('Authentication code')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ confirmation_token: 'tok', authentication_code: '123456' });
    expect(readPendingLogin()?.token).toBe('tok');
  });

  it('does not send a refused code again on Enter until it changes', async () => {
    savePendingLogin('tok', null);
    const calls = stubFetch((c) =>
      c.path === '/auth/login/checkpoint' ? apiError(400, 'The two-factor authentication token was invalid.') : signedOut(),
    );
    renderAuth('/auth/login/checkpoint');
    const ue = userEvent.setup();
    const field = await screen.findByLabelText('Authentication code');
    await ue.type(field, '123456');
    await screen.findByText('The two-factor authentication token was invalid.');
    await ue.type(field, '{Enter}');
    await ue.click(screen.getByRole('button', { name: 'Continue' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    await ue.clear(field);
    await ue.type(field, '654321');
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
  });

  it('puts a reference panel’s plain 400 for a wrong code on the field too', async () => {
    savePendingLogin('tok', null);
    stubFetch((c) => (c.path === '/auth/login/checkpoint' ? apiError(400, 'The two-factor authentication token was invalid.') : signedOut()));
    renderAuth('/auth/login/checkpoint');
    await userEvent.setup().type(await screen.findByLabelText('Authentication code'), '654321');
    await screen.findByText('The two-factor authentication token was invalid.');
    expect(screen.getByLabelText('Authentication code')).toHaveAttribute('aria-invalid', 'true');
  });

  it('takes a recovery token instead, and can switch back', async () => {
    savePendingLogin('tok', '/server/abcd1234');
    let signedIn = false;
    const calls = stubFetch((c) => {
      if (c.path === '/auth/login/checkpoint') {
        signedIn = true;
        return json(200, { data: { complete: true, intended: '/', user: loginUser } });
      }
      return signedIn ? json(200, account) : signedOut();
    });
    renderAuth('/auth/login/checkpoint');
    const ue = userEvent.setup();
    await ue.click(await screen.findByRole('button', { name: 'Use a recovery token instead' }));
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Use an authentication code instead' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Authentication code'));
    await ue.click(screen.getByRole('button', { name: 'Use a recovery token instead' }));
    const field = screen.getByLabelText('Recovery token');
    expect(document.activeElement).toBe(field);
    await ue.type(field, 'abcde12345');
    await ue.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Arrived at /server/abcd1234')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ confirmation_token: 'tok', recovery_token: 'abcde12345' });
    expect(readPendingLogin()).toBeNull();
  });

  it('starts over when the server says the token expired', async () => {
    savePendingLogin('tok', '/server/x');
    stubFetch((c) =>
      c.path === '/auth/login/checkpoint'
        ? apiError(400, 'The authentication token provided has expired, please refresh the page and try again.')
        : signedOut(),
    );
    const { router } = renderAuth('/auth/login/checkpoint');
    await userEvent.setup().type(await screen.findByLabelText('Authentication code'), '123456');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?redirect=%2Fserver%2Fx');
    expect(screen.getByRole('status')).toHaveTextContent('expired');
    expect(readPendingLogin()).toBeNull();
  });

  it('starts over once the five minutes are up', async () => {
    savePendingLogin('tok', null, Date.now() - 5 * 60_000 + 50);
    stubFetch(signedOut);
    renderAuth('/auth/login/checkpoint');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('expired');
  });
});
