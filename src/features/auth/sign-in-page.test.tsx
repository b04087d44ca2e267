// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { account, apiError, json, loginUser, renderAuth, stubFetch } from '../../test/auth-test-support';
import { readPendingLogin } from './pending-login';

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const signedOut = () => apiError(401, 'Unauthenticated.');

async function fillAndSubmit(user = 'dana', password = 'hunter22') {
  const ue = userEvent.setup();
  if (user) await ue.type(await screen.findByLabelText('Username or email'), user);
  if (password) await ue.type(screen.getByLabelText('Password'), password);
  await ue.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('SignInPage', () => {
  it('checks the fields with the contract before sending anything', async () => {
    const calls = stubFetch(signedOut);
    renderAuth('/auth/login');
    await fillAndSubmit('', '');
    const userField = screen.getByLabelText('Username or email');
    expect(userField).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Enter your username or email.')).toBeInTheDocument();
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(document.activeElement).toBe(userField);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('shows a refused login above the form', async () => {
    stubFetch((c) => (c.path === '/auth/login' ? apiError(400, 'No account matching those credentials could be found.') : signedOut()));
    renderAuth('/auth/login');
    await fillAndSubmit();
    expect((await screen.findByRole('alert')).textContent).toBe('No account matching those credentials could be found.');
  });

  it('puts a validation error on its field', async () => {
    stubFetch((c) => (c.path === '/auth/login' ? apiError(422, 'The user may not be greater than 191 characters.', 'user') : signedOut()));
    renderAuth('/auth/login');
    await fillAndSubmit();
    expect(await screen.findByText('The user may not be greater than 191 characters.')).toBeInTheDocument();
    expect(screen.getByLabelText('Username or email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('says when to try again after too many attempts', async () => {
    stubFetch((c) => (c.path === '/auth/login' ? apiError(429, 'Too many login attempts. Please try again in 42 seconds.') : signedOut()));
    renderAuth('/auth/login');
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('try again in 42 seconds');
  });

  it('goes back to the page first asked for after signing in', async () => {
    let signedIn = false;
    const calls = stubFetch((c) => {
      if (c.path === '/auth/login') {
        signedIn = true;
        return json(200, { data: { complete: true, intended: '/', user: { ...loginUser, use_totp: false } } });
      }
      return signedIn ? json(200, account) : signedOut();
    });
    renderAuth('/auth/login?redirect=%2Fserver%2Fabcd1234%2Ffiles');
    await fillAndSubmit();
    expect(await screen.findByText('Arrived at /server/abcd1234/files')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/auth/login')?.body).toEqual({ user: 'dana', password: 'hunter22' });
  });

  it('never follows a redirect to another site', async () => {
    let signedIn = false;
    stubFetch((c) => {
      if (c.path === '/auth/login') {
        signedIn = true;
        return json(200, { data: { complete: true, intended: '/', user: loginUser } });
      }
      return signedIn ? json(200, account) : signedOut();
    });
    renderAuth('/auth/login?redirect=%2F%2Fevil.example');
    await fillAndSubmit();
    expect(await screen.findByText('Arrived at /')).toBeInTheDocument();
  });

  it('keeps the pending login and the redirect for the two-factor step', async () => {
    stubFetch((c) => (c.path === '/auth/login' ? json(200, { data: { complete: false, confirmation_token: 'tok-123' } }) : signedOut()));
    const { router } = renderAuth('/auth/login?redirect=%2Fserver%2Fabcd1234');
    await fillAndSubmit();
    await screen.findByLabelText('Authentication code');
    expect(router.state.location.pathname).toBe('/auth/login/checkpoint');
    expect(router.state.location.search).toBe('?redirect=%2Fserver%2Fabcd1234');
    expect(readPendingLogin()).toMatchObject({ token: 'tok-123', redirect: '/server/abcd1234' });
  });

  it('sends a signed-in user straight on', async () => {
    stubFetch(() => json(200, account));
    renderAuth('/auth/login?redirect=%2Fserver%2Fabcd1234');
    expect(await screen.findByText('Arrived at /server/abcd1234')).toBeInTheDocument();
  });

  it('shows a message another page left for it', async () => {
    stubFetch(signedOut);
    const { router } = renderAuth('/somewhere');
    await router.navigate('/auth/login', { state: { notice: 'Please sign in again to continue.' } });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Please sign in again to continue.'));
  });
});
