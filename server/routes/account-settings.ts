import { revokeUserTokens } from '../services/node-tokens';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TOTP } from 'otpauth';
import { accountEndpoints, MAX_API_KEYS, type ActivityEvent, type PreferencesUpdate } from '../../src/contract';
import type { AppDeps } from '../deps';
import { sshKeys, users } from '../db/repos';
import { readSettings } from '../services/panel-settings';
import type { KeySummary } from '../db/repos/api-keys';
import { badRequest, HttpError, notFound, tooManyRequests, validationError } from '../http/errors';
import { paginatedList } from '../http/pagination';
import { clientRoute } from '../http/routes';
import { loadSecretBox } from '../lib/secret-box';
import { isoOffset } from '../lib/time';
import { logActivity, userActivity, type ActivityInput } from '../services/activity';
import { listActivity } from '../services/activity-view';
import { createApiKey, deleteApiKey, isIpRange, listApiKeys } from '../services/api-keys';
import type { Caller } from '../services/authentication';
import { addSshKey, sshKeyResource } from '../services/ssh-keys';
import { SlidingWindowThrottle } from '../services/throttle';
import { claimTotpStep, matchTotpStep, openTotpSecret } from '../services/totp';
import { changePassword, enableTotpWith, newTotpSecret, verifyPassword } from '../services/users';

/**
 * Failed password and two-factor code checks per account, five a minute (the sign-in lock-out's
 * rate): a stolen session cannot be used to guess the password it would need to take the account over.
 */
const CONFIRM_LIMIT = { max: 5, windowMs: 60_000 };
/**
 * E-mail changes per account, three a day (the reference's fix for GHSA-j7f5-gfqm-pcx3, as Pelican's
 * port): "already taken" answers an address lookup, so one with the right password counts as a change.
 */
const EMAIL_CHANGE_LIMIT = { max: 3, windowMs: 24 * 60 * 60_000 };

const MAX_PASSWORD_LENGTH = 1024;
const WRONG_PASSWORD = 'The password provided was invalid for this account.';

/** The account settings: password, e-mail, theme and language, two-factor, API keys, SSH keys and the account's activity. */
export async function accountSettingsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, clock, config } = deps;
  const box = loadSecretBox(config.dataDir);
  const failures = new SlidingWindowThrottle(clock, CONFIRM_LIMIT);
  const emailChanges = new SlidingWindowThrottle(clock, EMAIL_CHANGE_LIMIT);

  const activity = (caller: Caller, request: FastifyRequest, event: ActivityEvent, properties = {}, subjects: ActivityInput['subjects'] = []) =>
    logActivity(db, userActivity(caller, request.ip, event, properties, clock.now(), subjects));

  /** Refuses while the account has too many recent failures; a failure from `check` counts. */
  async function confirm(caller: Caller, check: () => Promise<boolean> | boolean, failure: () => HttpError): Promise<void> {
    const key = `user:${caller.user.id}`;
    const waitMs = failures.retryAfterMs(key);
    if (waitMs > 0) throw tooManyRequests(waitMs / 1000);
    if (await check()) return;
    failures.hit(key);
    throw failure();
  }

  const confirmPassword = (caller: Caller, password: string, failure = () => badRequest(WRONG_PASSWORD, 'InvalidPasswordProvidedException')) =>
    confirm(caller, () => verifyPassword(caller.user.password_hash, password), failure);

  /** The current password, checked before the body is validated (the reference panel's order). */
  const passwordField = (field: string) => ({
    authorize: (request: FastifyRequest, caller: Caller) => confirmPassword(caller, stringField(request.body, field)),
  });

  await clientRoute(
    app,
    accountEndpoints.password,
    passwordField('current_password'),
  )(async ({ request, caller, body }) => {
    // A bearer-key caller has no session of its own to keep: every session ends.
    await changePassword(db, caller.user.id, body.password, clock.now(), caller.sessionId ?? undefined);
    // Open consoles too (attacks T-SESS-4); this browser's console asks for a new token.
    await revokeUserTokens(db, deps.nodes, caller.user);
    await activity(caller, request, 'user:account.password-changed');
  });

  await clientRoute(
    app,
    accountEndpoints.email,
    passwordField('password'),
  )(async ({ request, caller, body }) => {
    const old = caller.user.email;
    if (body.email === old) return;
    // Counted before the lookup, and with nothing awaited in between, so parallel requests cannot pass it.
    const key = `user:${caller.user.id}`;
    const waitMs = emailChanges.retryAfterMs(key);
    if (waitMs > 0) throw tooManyRequests(waitMs / 1000);
    emailChanges.hit(key);
    const holder = await users.findByEmail(db, body.email);
    // The same answer whoever holds it.
    if (holder && holder.id !== caller.user.id) throw validationError('email', 'The email has already been taken.', 'unique');
    try {
      await users.setEmail(db, caller.user.id, body.email, clock.now());
    } catch (error) {
      // Taken between the check and the write.
      if (/UNIQUE/i.test(String(error))) throw validationError('email', 'The email has already been taken.', 'unique');
      throw error;
    }
    await activity(caller, request, 'user:account.email-changed', { old, new: body.email });
  });

  await clientRoute(
    app,
    accountEndpoints.preferences,
  )(async ({ request, caller, body }) => {
    const { user } = caller;
    // Only what differs is written and logged: choosing the current theme again is no event.
    const changed: PreferencesUpdate = {};
    if (body.theme !== undefined && body.theme !== user.theme) changed.theme = body.theme;
    if (body.language !== undefined && body.language !== user.language) changed.language = body.language;
    if (Object.keys(changed).length === 0) return;
    await users.update(db, user.id, changed, clock.now());
    await activity(caller, request, 'user:account.preferences-changed', changed);
  });

  await clientRoute(
    app,
    accountEndpoints.twoFactorSetup,
  )(async ({ caller: { user } }) => {
    const secret = newTotpSecret();
    if (user.use_totp === 1 || !(await users.setPendingTotpSecret(db, user.id, box.seal(secret), clock.now()))) throw alreadyEnabled();
    // The authenticator app lists the account under the panel's name, as the admin set it.
    const { panelName } = await readSettings(db, config.appName);
    const uri = new TOTP({ issuer: panelName, label: user.email, secret, algorithm: 'SHA1', digits: 6, period: 30 }).toString();
    return { data: { image_url_data: uri, secret } };
  });

  await clientRoute(
    app,
    accountEndpoints.twoFactorEnable,
  )(async ({ request, caller, body }) => {
    const { user } = caller;
    if (user.use_totp === 1) throw alreadyEnabled();
    await confirmPassword(caller, body.password, () => badRequest('The password provided was not valid.'));
    const secret = openTotpSecret(box, user.totp_secret);
    const step = secret === null ? null : matchTotpStep(secret, body.code, clock.now(), null);
    const invalidToken = () => badRequest('The token provided is not valid.', 'TwoFactorAuthenticationTokenInvalid');
    await confirm(caller, () => step !== null, invalidToken);
    if (secret === null || step === null) throw invalidToken();
    const tokens = await enableTotpWith(db, box, user.id, secret, clock.now(), caller.sessionId ?? undefined);
    // The code that turned it on is spent: it cannot also pass the sign-in checkpoint.
    await claimTotpStep(db, user.id, step);
    await activity(caller, request, 'user:two-factor.create');
    return { object: 'recovery_tokens', attributes: { tokens } };
  });

  await clientRoute(
    app,
    accountEndpoints.twoFactorDisable,
  )(async ({ request, caller, body }) => {
    await confirmPassword(caller, body.password, () => badRequest('The password provided was not valid.'));
    await users.disableTotp(db, caller.user.id, clock.now());
    await activity(caller, request, 'user:two-factor.delete');
  });

  await clientRoute(
    app,
    accountEndpoints.apiKeys,
  )(async ({ caller }) => ({ object: 'list', data: (await listApiKeys(db, caller.user.id)).map(apiKeyResource) }));

  await clientRoute(
    app,
    accountEndpoints.apiKeyCreate,
  )(async ({ request, caller, body }) => {
    const allowed = (body.allowed_ips ?? []).filter(Boolean);
    const bad = allowed.findIndex((entry) => !isIpRange(entry));
    if (bad >= 0) throw validationError(`allowed_ips.${bad}`, `"${allowed[bad]}" is not an IP address or CIDR range.`);
    if ((await listApiKeys(db, caller.user.id)).length >= MAX_API_KEYS) {
      throw badRequest('You have reached the account limit for number of API keys.', 'DisplayException');
    }
    const now = clock.now();
    const key = await createApiKey(db, caller.user.id, body.description, now, allowed);
    await activity(caller, request, 'user:api-key.create', { identifier: key.identifier });
    const created = {
      identifier: key.identifier,
      description: body.description,
      allowed_ips: allowed,
      last_used_at: null,
      created_at: now.toISOString(),
    };
    return { ...apiKeyResource(created), meta: { secret_token: key.token } };
  });

  await clientRoute(
    app,
    accountEndpoints.apiKeyDelete,
  )(async ({ request, caller }) => {
    const { identifier } = request.params as { identifier: string };
    if (!(await deleteApiKey(db, identifier, { userId: caller.user.id, type: 'account' }))) throw notFound();
    await activity(caller, request, 'user:api-key.delete', { identifier });
  });

  await clientRoute(
    app,
    accountEndpoints.sshKeys,
  )(async ({ caller }) => ({ object: 'list', data: (await sshKeys.listForUser(db, caller.user.id)).map(sshKeyResource) }));

  await clientRoute(
    app,
    accountEndpoints.sshKeyCreate,
  )(async ({ request, caller, body }) => {
    const row = await addSshKey(db, caller.user.id, body.name, body.public_key, clock.now());
    await activity(caller, request, 'user:ssh-key.create', { fingerprint: row.fingerprint }, [{ type: 'ssh_key', id: row.id }]);
    return sshKeyResource(row);
  });

  await clientRoute(
    app,
    accountEndpoints.sshKeyRemove,
  )(async ({ request, caller, body }) => {
    // Someone else's fingerprint, or an unknown one, is a silent no-op.
    const removed = await sshKeys.removeByFingerprint(db, caller.user.id, body.fingerprint);
    if (removed) await activity(caller, request, 'user:ssh-key.delete', { fingerprint: removed.fingerprint }, [{ type: 'ssh_key', id: removed.id }]);
  });

  await clientRoute(
    app,
    accountEndpoints.activity,
  )(async ({ request, caller, query }) => {
    const viewer = { userId: caller.user.id, isAdmin: caller.user.root_admin === 1 };
    const { data, total } = await listActivity(db, { type: 'user', id: caller.user.id }, viewer, query);
    return paginatedList(request, config.appUrl, data, total, query);
  });
}

/** `body[field]` when it is a string of a password's length, else '' (which no password matches, and costs no hashing of a huge input). */
function stringField(body: unknown, field: string): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' && value.length <= MAX_PASSWORD_LENGTH ? value : '';
}

const alreadyEnabled = () => badRequest('Two-factor authentication is already enabled on this account.');

function apiKeyResource(key: Omit<KeySummary, 'key_type' | 'permissions'>) {
  return {
    object: 'api_key' as const,
    attributes: {
      identifier: key.identifier,
      description: key.description,
      allowed_ips: key.allowed_ips,
      last_used_at: key.last_used_at === null ? null : isoOffset(key.last_used_at),
      created_at: isoOffset(key.created_at),
    },
  };
}
