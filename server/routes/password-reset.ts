import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FORGOT_PASSWORD_SENT, passwordResetEndpoints, RESET_TOKEN_INVALID } from '../../src/contract';
import type { AppDeps } from '../deps';
import { clearSessionCookies } from '../http/authenticate';
import { badRequest, parseWith, tooManyRequests } from '../http/errors';
import { mailedOrigin } from '../http/origin';
import { userAgentOf } from '../http/request-context';
import { recordAuthEvent } from '../services/login';
import { passwordResetMail } from '../services/account-mail';
import { panelMailer } from '../services/panel-settings';
import { loadSecretBox } from '../lib/secret-box';
import { revokeUserTokens } from '../services/node-tokens';
import { issueResetToken, resetLink, resetPassword } from '../services/password-reset';
import { ipBucketKey } from '../lib/ip-bucket';
import { SlidingWindowThrottle } from '../services/throttle';
import { findUserByEmail } from '../services/users';

/** Reset requests and resets per client address. */
const IP_LIMIT = { max: 20, windowMs: 15 * 60_000 };
/** Reset mails per typed address, known or not, so nobody can flood one inbox. */
const ADDRESS_LIMIT = { max: 5, windowMs: 15 * 60_000 };

/**
 * Password reset by mail: ask for a link (`POST /auth/password`, the same answer whether or not
 * the address has an account) and set a new password with it (`POST /auth/password/reset`).
 */
export async function passwordResetRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, clock, config } = deps;
  // Mail goes where the settings say now (an admin may change them), else SMTP_URL.
  const box = loadSecretBox(config.dataDir);
  if (!(await panelMailer(db, config, box)).enabled) {
    app.log.warn(
      'No mail server is set (admin settings or SMTP_URL): password-reset mail is not sent (npm run -s panel -- user:reset-link --email E prints a link).',
    );
  }
  const perIp = new SlidingWindowThrottle(clock, IP_LIMIT);
  const perAddress = new SlidingWindowThrottle(clock, ADDRESS_LIMIT);

  function guard(throttle: SlidingWindowThrottle, key: string): void {
    const waitMs = throttle.retryAfterMs(key);
    if (waitMs <= 0) return;
    const seconds = Math.ceil(waitMs / 1000);
    throw tooManyRequests(seconds, `Too many password reset attempts. Please try again in ${seconds} seconds.`);
  }

  function throttleAddress(request: FastifyRequest): void {
    const key = ipBucketKey(request.ip);
    guard(perIp, key);
    perIp.hit(key);
  }

  app.get(passwordResetEndpoints.status.path, async () => ({ data: { mail: (await panelMailer(db, config, box)).enabled } }));

  app.post(passwordResetEndpoints.forgot.path, async (request, reply) => {
    throttleAddress(request);
    const { email } = parseWith(passwordResetEndpoints.forgot.body, request.body);
    const addressKey = email.toLowerCase();
    guard(perAddress, addressKey);
    perAddress.hit(addressKey);

    // Read for every address, known or not, so both answer alike.
    const mail = await panelMailer(db, config, box);
    const user = await findUserByEmail(db, email);
    const token = await issueResetToken(db, user, clock.now());
    if (user) {
      const link = resetLink(mailedOrigin(request, config), token, user.email);
      // Not awaited: a known address must not answer measurably later than an unknown one.
      mail
        .send(passwordResetMail(mail.panelName, user.email, link))
        .catch((error: unknown) => request.log.error({ err: error }, 'password-reset mail not sent'));
    }
    // The SPA fetched an XSRF cookie to send this; a browser with no session should not keep it,
    // or the sign-in page would take it for a session and log a 401 asking who it is.
    if (!request.caller) clearSessionCookies(deps, reply);
    return { status: FORGOT_PASSWORD_SENT };
  });

  app.post(passwordResetEndpoints.reset.path, async (request, reply) => {
    throttleAddress(request);
    const body = parseWith(passwordResetEndpoints.reset.body, request.body);
    const now = clock.now();
    const user = await resetPassword(db, body.email, body.token, body.password, now);
    if (!user) throw badRequest(RESET_TOKEN_INVALID, 'DisplayException');
    await revokeUserTokens(db, deps.nodes, user);
    await recordAuthEvent(db, 'auth:password-reset', { ip: request.ip, userAgent: userAgentOf(request), now }, user);
    // The reference panel's answer; nobody is signed in here (every session just ended), so the
    // SPA sends the user to sign in, where 2FA is still asked for. The browser is told so as at a
    // logout, so it does not ask who it is and log a 401.
    clearSessionCookies(deps, reply);
    return { success: true as const, redirect_to: '/', send_to_login: true };
  });
}
