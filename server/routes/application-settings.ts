import type { FastifyInstance } from 'fastify';
import { adminSettingsEndpoints, panelEndpoints } from '../../src/contract/admin-settings';
import type { AppDeps } from '../deps';
import { badRequest } from '../http/errors';
import { adminRoute } from '../http/routes';
import { loadSecretBox } from '../lib/secret-box';
import { adminActivity, logActivity } from '../services/activity';
import { mailErrorMeaning } from '../services/mail';
import { panelMailer, readSettings, settingsView, updateSettings } from '../services/panel-settings';

/*
 * The panel's settings in the admin area (`/api/application/settings`, a root admin's session
 * only), and the one public fact about the panel, its name (`GET /api/panel`).
 */

export async function applicationSettingsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config, clock } = deps;
  const box = loadSecretBox(config.dataDir);
  const view = async () => ({
    object: 'settings' as const,
    attributes: settingsView(await readSettings(db, config.appName), config.smtpUrl !== undefined),
  });

  await adminRoute(app, adminSettingsEndpoints.view)(view);

  await adminRoute(
    app,
    adminSettingsEndpoints.update,
  )(async ({ request, caller, body }) => {
    const before = await readSettings(db, config.appName);
    const { change } = await updateSettings(db, box, before, body, clock.now());
    if (change.changed.length > 0) {
      await logActivity(db, adminActivity(caller, request.ip, 'admin:settings.update', { ...change }, clock.now(), []));
    }
    return view();
  });

  await adminRoute(
    app,
    adminSettingsEndpoints.mailTest,
  )(async ({ caller }) => {
    const mailer = await panelMailer(db, config, box);
    if (!mailer.enabled) throw badRequest('No mail server is configured: set the mail settings (or SMTP_URL) first.', 'DisplayException');
    const { panelName } = mailer;
    try {
      await mailer.send({
        to: caller.user.email,
        subject: `${panelName}: test e-mail`,
        text: `This is a test e-mail from ${panelName}. Mail from the panel reaches you.`,
      });
    } catch (error) {
      throw badRequest(mailErrorMeaning(error), 'DisplayException');
    }
    return { object: 'mail_test' as const, attributes: { to: caller.user.email } };
  });
}

/** `GET /api/panel`: the panel's name for everyone, signed in or not (Aerie's; a real Pterodactyl 404s). */
export async function panelInfoRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get(panelEndpoints.info.path, async () => ({
    object: 'panel' as const,
    attributes: { name: (await readSettings(deps.db, deps.config.appName)).panelName },
  }));
}
