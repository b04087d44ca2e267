import { ApiError } from './http';

/*
 * The panel requires two-factor authentication of this account and it has none: every client
 * route but the account's 2FA setup answers 400 TwoFactorAuthRequiredException (the reference's
 * middleware, which its SPA answers by going to the account page). The setup page says why.
 */

export const TWO_FACTOR_SETUP_PATH = '/account/two-factor';
export const TWO_FACTOR_REQUIRED_PARAM = 'required';

export function isTwoFactorRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && error.code === 'TwoFactorAuthRequiredException';
}

/** Sends the browser to the 2FA setup with the reason, unless it is there already. True when the error was that one. */
export function redirectIfTwoFactorRequired(error: unknown): boolean {
  if (!isTwoFactorRequired(error)) return false;
  if (window.location.pathname !== TWO_FACTOR_SETUP_PATH) window.location.assign(`${TWO_FACTOR_SETUP_PATH}?${TWO_FACTOR_REQUIRED_PARAM}=1`);
  return true;
}
