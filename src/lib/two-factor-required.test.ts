// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './http';
import { redirectIfTwoFactorRequired } from './two-factor-required';
import { pageTitle } from './panel-name';

afterEach(() => vi.unstubAllGlobals());

const required = new ApiError(400, [
  {
    code: 'TwoFactorAuthRequiredException',
    status: '400',
    detail: 'Two-factor authentication is required on this account in order to access this endpoint.',
  },
]);

describe('redirectIfTwoFactorRequired', () => {
  it('sends the browser to the 2FA setup with the reason on the reference’s error only', () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { pathname: '/server/abcd1234', assign });
    expect(redirectIfTwoFactorRequired(new ApiError(400, [{ code: 'DisplayException', status: '400', detail: 'No.' }]))).toBe(false);
    expect(redirectIfTwoFactorRequired(new Error('x'))).toBe(false);
    expect(assign).not.toHaveBeenCalled();
    expect(redirectIfTwoFactorRequired(required)).toBe(true);
    expect(assign).toHaveBeenCalledWith('/account/two-factor?required=1');
  });

  it('stays put on the setup page itself', () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { pathname: '/account/two-factor', assign });
    expect(redirectIfTwoFactorRequired(required)).toBe(true);
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('pageTitle', () => {
  it('ends with "Aerie" until the panel says its name', () => {
    expect(pageTitle('Settings', 'Admin')).toBe('Settings · Admin · Aerie');
  });
});
