import type { FastifyInstance, FastifyRequest } from 'fastify';
import { subuserEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import { subusers } from '../db/repos';
import { forbidden, notFound, tooManyRequests, validationError } from '../http/errors';
import { mailedOrigin } from '../http/origin';
import type { ServerAccess } from '../services/access';
import type { Caller } from '../services/authentication';
import { accountCreatedMail } from '../services/account-mail';
import { panelMailer } from '../services/panel-settings';
import { loadSecretBox } from '../lib/secret-box';
import { issueResetToken, resetLink } from '../services/password-reset';
import { findUserByEmail } from '../services/users';
import { addSubuser, assertGrantable, changeSubuserPermissions, removeSubuser, subuserResource } from '../services/subusers';
import { serverRoute } from '../http/routes';
import { SlidingWindowThrottle } from '../services/throttle';

/** Invites one server may send: the reference's creation throttle (Pelican 53aa49b1), 10 per 15 minutes (T-RACE-1). */
const INVITE_LIMIT = { max: 10, windowMs: 15 * 60_000 };

/*
 * The users tab (reference panel): who shares a server and with which permissions. A subuser
 * grants only what they hold; a change or removal revokes their console tokens at once, and the
 * next request reads the stored permissions afresh (nothing caches them).
 */
export async function subuserRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, clock, config } = deps;
  // Mail goes where the settings say now (an admin may change them), else SMTP_URL.
  const box = loadSecretBox(config.dataDir);
  const invites = new SlidingWindowThrottle(clock, INVITE_LIMIT);
  const authorize = (request: FastifyRequest, access: Parameters<typeof assertGrantable>[0]) => assertGrantable(access, request.body);

  /** The subuser named in the path: 404 unless a subuser of this server (before 409 and 403). */
  async function bind(request: FastifyRequest, access: ServerAccess) {
    const { user } = request.params as { user: string };
    const sub = await subusers.findByUserUuid(db, access.server.id, user);
    if (!sub) throw notFound();
    return sub;
  }

  /** Nobody acts on their own subuser row (the reference panel's authorize: 403). */
  function notSelf<S extends { user_id: number }>(sub: S, caller: Caller): S {
    if (sub.user_id === caller.user.id) throw forbidden();
    return sub;
  }

  await serverRoute(
    app,
    deps,
    subuserEndpoints.list,
  )(async ({ server }) => ({
    object: 'list' as const,
    data: (await subusers.ofServer(db, server.id)).map((s) => subuserResource(s.user, s.permissions)),
  }));

  await serverRoute(app, deps, subuserEndpoints.create, { authorize })(async ({ request, server, body, activity }) => {
    // Counted before anything is made, so requests racing each other cannot pass it (each new address is an account).
    const waitMs = invites.retryAfterMs(server.uuid);
    if (waitMs > 0) throw tooManyRequests(waitMs / 1000);
    invites.hit(server.uuid);
    const mail = await panelMailer(db, config, box);
    // Without mail only the inviter could receive a new account's set-password link, and whoever
    // holds that link owns the account (and every server later shared with the address): so no
    // account is made (issue 22 #10).
    if (!mail.enabled && !(await findUserByEmail(db, body.email))) {
      throw validationError(
        'email',
        'No account uses this address, and this panel cannot send mail to invite them. Ask them to get an account first (from the panel operator), or ask the operator to configure mail.',
        'no_account_without_mail',
      );
    }
    const now = clock.now();
    const { subuser, user, created } = await addSubuser(db, server, body.email, body.permissions, now);
    await activity('server:subuser.create', { email: body.email, permissions: subuser.permissions }, [{ type: 'user', id: user.id }]);
    const resource = subuserResource(user, subuser.permissions);
    // What is mailed never names the Host this request chose.
    const origin = mailedOrigin(request, config);
    const send = (subject: string, text: string[]) =>
      mail
        .send({ to: user.email, subject, text: text.join('\n') })
        .catch((error: unknown) => request.log.error({ err: error }, 'subuser mail not sent'));
    if (!created) {
      // An existing account is told, as the reference panel's "added to server" notice does.
      if (mail.enabled) {
        void send(`${mail.panelName}: you were added to a server`, [
          `You have been added as a subuser of the server "${server.name}" on ${mail.panelName}, with the permissions its owner chose.`,
          '',
          `Open it here: ${origin}/server/${server.uuid.slice(0, 8)}`,
        ]);
      }
      return resource;
    }
    // A new account (mail is on, checked above): its set-password link goes only to the address.
    const link = resetLink(origin, await issueResetToken(db, user, now), user.email, 'invite');
    void mail
      .send(accountCreatedMail(mail.panelName, user.email, link, ` to share the server "${server.name}"`))
      .catch((error: unknown) => request.log.error({ err: error }, 'subuser mail not sent'));
    return resource;
  });

  await serverRoute(app, deps, subuserEndpoints.view, { bind })(async ({ bound, caller }) => {
    const sub = notSelf(bound, caller);
    return subuserResource(sub.user, sub.permissions);
  });

  await serverRoute(app, deps, subuserEndpoints.update, { bind, authorize })(async ({ bound, server, caller, daemon, body, activity }) => {
    const sub = notSelf(bound, caller);
    const { subuser, changed, revoked } = await changeSubuserPermissions(db, daemon, server, sub, body.permissions, clock.now());
    if (changed) {
      await activity('server:subuser.update', { email: sub.user.email, old: sub.permissions, new: subuser.permissions, revoked }, [
        { type: 'user', id: sub.user_id },
      ]);
    }
    return subuserResource(sub.user, subuser.permissions);
  });

  await serverRoute(app, deps, subuserEndpoints.delete, { bind })(async ({ bound, server, caller, daemon, activity }) => {
    const sub = notSelf(bound, caller);
    const { revoked } = await removeSubuser(db, daemon, server, sub);
    await activity('server:subuser.delete', { email: sub.user.email, revoked }, [{ type: 'user', id: sub.user_id }]);
  });
}
