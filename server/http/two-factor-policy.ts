import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps';
import { mustEnrolTwoFactor, readSettings } from '../services/panel-settings';
import { HttpError } from './errors';
import './request-context';

/*
 * The required-two-factor policy (settings `require_two_factor`, the reference's
 * RequireTwoFactorAuthentication): a caller who must use 2FA and has not set it up gets the
 * reference's 400 TwoFactorAuthRequiredException on every client route but the account itself and
 * its two-factor setup (and the sign-in and sign-out routes), until they enable it. Exemptions
 * are by the route that matched, never the raw URL, so an encoded path cannot slip past.
 */

const EXEMPT = new Set([
  'GET /api/client/account',
  'GET /api/client/account/two-factor',
  'POST /api/client/account/two-factor',
  'POST /api/client/account/two-factor/disable',
  'GET /api/panel',
]);
const EXEMPT_PREFIXES = ['/auth/', '/sanctum/'];

export const twoFactorRequired = () =>
  new HttpError(400, 'TwoFactorAuthRequiredException', 'Two-factor authentication is required on this account in order to access this endpoint.');

/** Registers the check in a route group, after its authentication. */
export function registerTwoFactorPolicy(app: FastifyInstance, deps: AppDeps): void {
  app.addHook('preHandler', async (request) => {
    const user = request.caller?.user;
    if (!user || user.use_totp === 1) return;
    const route = request.routeOptions.url ?? '';
    if (EXEMPT.has(`${request.method} ${route}`) || EXEMPT_PREFIXES.some((p) => route.startsWith(p))) return;
    const { requireTwoFactor } = await readSettings(deps.db, deps.config.appName);
    if (mustEnrolTwoFactor(requireTwoFactor, user)) throw twoFactorRequired();
  });
}
