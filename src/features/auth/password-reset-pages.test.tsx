// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, json, renderAuth, stubFetch, type Call } from '../../test/auth-test-support';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const signedOut = () => apiError(401, 'Unauthenticated.');
const mailStatus = (mail: boolean) => (c: Call) => (c.path === '/auth/password/status' ? json(200, { data: { mail } }) : signedOut());

describe('the sign-in page\'s "Forgot password?" link', () => {
  it('is there when the panel sends mail, and leads to the forgot page', async () => {
    stubFetch(mailStatus(true));
    renderAuth('/auth/login');
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
  });

  it('is hidden when the panel sends no mail', async () => {
    const calls = stubFetch(mailStatus(false));
    renderAuth('/auth/login');
    await screen.findByLabelText('Username or email');
    await waitFor(() => expect(calls.some((c) => c.path === '/auth/password/status')).toBe(true));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).not.toBeInTheDocument();
  });
});

describe('ForgotPasswordPage', () => {
  it('sends the address and answers neutrally', async () => {
    const calls = stubFetch((c) => (c.path === '/auth/password' ? json(200, { status: 'We have e-mailed your password reset link!' }) : signedOut()));
    renderAuth('/auth/password');
    const ue = userEvent.setup();
    await ue.type(await screen.findByLabelText('Email'), 'dana@example.test');
    await ue.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account exists for dana@example.test, a mail with a reset link is on its way.',
    );
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: '/auth/password', body: { email: 'dana@example.test' } });
  });

  it('checks the address with the contract before sending anything', async () => {
    const calls = stubFetch(signedOut);
    renderAuth('/auth/password');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('The email field is required.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says when to try again after too many requests', async () => {
    stubFetch((c) =>
      c.path === '/auth/password' ? apiError(429, 'Too many password reset attempts. Please try again in 90 seconds.') : signedOut(),
    );
    renderAuth('/auth/password');
    const ue = userEvent.setup();
    await ue.type(await screen.findByLabelText('Email'), 'dana@example.test');
    await ue.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('try again in 90 seconds');
  });
});

describe('ResetPasswordPage', () => {
  const path = '/auth/password/reset/tok-123?email=dana%40example.test';

  async function fill(password: string, confirmation = password) {
    const ue = userEvent.setup();
    await ue.type(await screen.findByLabelText('New password'), password);
    await ue.type(screen.getByLabelText('Confirm new password'), confirmation);
    await ue.click(screen.getByRole('button', { name: 'Set password' }));
  }

  it('prefills the address, sends the token, then goes to sign in with a message, the address filled in and the password focused', async () => {
    const calls = stubFetch((c) =>
      c.path === '/auth/password/reset' ? json(200, { success: true, redirect_to: '/', send_to_login: true }) : signedOut(),
    );
    const { router } = renderAuth(path);
    expect(await screen.findByLabelText('Email')).toHaveValue('dana@example.test');
    await fill('a new password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been reset. Sign in with the new one.');
    // The address is filled in and the password is next; neither the password nor the token goes along.
    expect(screen.getByLabelText('Username or email')).toHaveValue('dana@example.test');
    expect(screen.getByLabelText('Password')).toHaveFocus();
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(JSON.stringify(router.state.location)).not.toMatch(/tok-123|a new password/);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      token: 'tok-123',
      email: 'dana@example.test',
      password: 'a new password',
      password_confirmation: 'a new password',
    });
  });

  it("an invite's link asks to set the new account's password, not to reset one, and says so after (issue 22 polish)", async () => {
    stubFetch((c) => (c.path === '/auth/password/reset' ? json(200, { success: true, redirect_to: '/', send_to_login: true }) : signedOut()));
    renderAuth(`${path}&invite=1`);
    expect(await screen.findByRole('heading', { name: 'Set your password' })).toBeInTheDocument();
    expect(screen.queryByText(/reset|new password of/i)).not.toBeInTheDocument();
    await fill('a first password');
    expect(await screen.findByRole('status')).toHaveTextContent('Your password is set. Sign in with it.');
  });

  it('refuses a short or unconfirmed password on its field before sending', async () => {
    const calls = stubFetch(signedOut);
    renderAuth(path);
    await fill('short');
    expect(await screen.findByText('The password must be at least 8 characters.')).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveAttribute('aria-invalid', 'true');
    cleanup();
    renderAuth(path);
    await fill('a new password', 'another one');
    expect(await screen.findByText('The password confirmation does not match.')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm new password')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("puts the server's field errors on their fields and a spent token above the form", async () => {
    let answer = apiError(422, 'The password confirmation does not match.', 'password_confirmation');
    stubFetch((c) => (c.path === '/auth/password/reset' ? answer : signedOut()));
    renderAuth(path);
    await fill('a new password');
    expect(await screen.findByText('The password confirmation does not match.')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm new password')).toHaveAttribute('aria-invalid', 'true');

    answer = apiError(400, 'This password reset token is invalid.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('This password reset token is invalid.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/auth/password');
  });
});
