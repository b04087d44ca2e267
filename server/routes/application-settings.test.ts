import { describe, expect } from 'vitest';
import { panelInfoSchema, settingsSchema } from '../../src/contract/admin-settings';
import { settings } from '../db/repos';
import { it as base } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { startMailCapture } from '../test/mail-capture';

/*
 * The panel's settings: the name everyone sees, the mail settings (which take SMTP_URL's place,
 * the password never shown) with a test mail, and the required-two-factor policy as the reference
 * enforces it (T-AUTH-6). Root admins' sessions only.
 */

const URL = '/api/application/settings';
const patch = (panel: TestPanel, headers: Record<string, string>, payload: object) =>
  panel.app.inject({ method: 'PATCH', url: URL, headers, payload });

const it = base.extend('admin', async ({ panel }) => {
  const user = await panel.user({ admin: true, email: 'root@example.com' });
  return { user, session: await panel.sessionHeaders(user) };
});

describe('the panel settings', () => {
  it('changes the panel name everyone reads from GET /api/panel, and logs what changed', async ({ panel, admin }) => {
    expect(panelInfoSchema.parse((await panel.app.inject({ url: '/api/panel' })).json()).attributes.name).toBe(panel.config.appName);
    const res = await patch(panel, admin.session, { panel_name: '  Hosting Co  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(settingsSchema.parse(res.json()).attributes).toMatchObject({ panel_name: 'Hosting Co', require_two_factor: 'off', mail: null });
    expect((await panel.app.inject({ url: '/api/panel' })).json()).toEqual({ object: 'panel', attributes: { name: 'Hosting Co' } });
    const [entry] = await panel.db.selectFrom('activity_logs').select(['event', 'properties']).execute();
    expect(entry?.event).toBe('admin:settings.update');
    expect(JSON.parse(entry?.properties ?? '{}')).toEqual({ changed: ['panel_name'], panel_name: 'Hosting Co' });
  });

  it('refuses bad bodies with field errors and changes nothing', async ({ panel, admin }) => {
    for (const [payload, field] of [
      [{ panel_name: '' }, 'panel_name'],
      [{ panel_name: 'x'.repeat(61) }, 'panel_name'],
      [{ require_two_factor: 'sometimes' }, 'require_two_factor'],
      [{ mail: { host: 'smtp.example.com', port: 0, encryption: 'tls', from_address: 'a@b.c' } }, 'mail.port'],
      [{ mail: { host: 'smtp.example.com', port: 25, encryption: 'ssl', from_address: 'a@b.c' } }, 'mail.encryption'],
      [{ mail: { host: 'smtp.example.com', port: 25, encryption: 'none', from_address: 'nobody' } }, 'mail.from_address'],
    ] as const) {
      const res = await patch(panel, admin.session, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().errors.map((e: { meta: { source_field: string } }) => e.meta.source_field)).toContain(field);
    }
    expect((await settings.all(panel.db)).size).toBe(0);
  });

  it('opens to a root admin’s session only', async ({ panel, admin }) => {
    const user = await panel.user();
    expect((await panel.app.inject({ url: URL, headers: await panel.sessionHeaders(user) })).statusCode).toBe(403);
    expect((await patch(panel, await panel.sessionHeaders(user), { panel_name: 'Mine' })).statusCode).toBe(403);
    expect((await panel.app.inject({ url: URL, headers: await panel.applicationHeaders(admin.user) })).statusCode).toBe(403);
    expect((await patch(panel, await panel.applicationHeaders(admin.user), { panel_name: 'Mine' })).statusCode).toBe(403);
    expect((await panel.app.inject({ url: URL, headers: await panel.bearerHeaders(admin.user) })).statusCode).toBe(401);
    const { 'x-xsrf-token': _csrf, ...noCsrf } = admin.session;
    expect((await patch(panel, noCsrf, { panel_name: 'Mine' })).statusCode).toBe(419);
    expect((await settings.all(panel.db)).size).toBe(0);
  });

  it('sends mail through stored settings in place of SMTP_URL, never returning the password; a refusal says why', async ({ makePanel }) => {
    const good = await startMailCapture({ auth: { user: 'panel', pass: 'smtp-secret' } });
    const unused = await startMailCapture();
    try {
      const panel = await makePanel({ smtpUrl: unused.url });
      const admin = await panel.user({ admin: true, email: 'root@example.com' });
      const session = await panel.sessionHeaders(admin);
      const mail = {
        host: '127.0.0.1',
        port: good.port,
        encryption: 'none',
        username: 'panel',
        password: 'smtp-secret',
        from_address: 'panel@example.com',
        from_name: 'Panel',
      };
      const saved = await patch(panel, session, { mail });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.body).not.toContain('smtp-secret');
      expect(settingsSchema.parse(saved.json()).attributes).toMatchObject({
        mail_source: 'settings',
        mail: { password_set: true, username: 'panel' },
      });
      expect(JSON.stringify(await panel.db.selectFrom('activity_logs').selectAll().execute())).not.toContain('smtp-secret');
      expect(JSON.stringify([...(await settings.all(panel.db)).values()])).not.toContain('smtp-secret');

      const sent = await panel.app.inject({ method: 'POST', url: `${URL}/mail/test`, headers: session });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json()).toEqual({ object: 'mail_test', attributes: { to: 'root@example.com' } });
      expect((await good.next('root@example.com')).from).toBe('panel@example.com');
      expect(unused.mails).toEqual([]);

      // The password left out is kept; a wrong one is refused by the server, and said so.
      expect((await patch(panel, session, { mail: { ...mail, password: undefined, from_name: null } })).json().attributes.mail.password_set).toBe(
        true,
      );
      expect((await panel.app.inject({ method: 'POST', url: `${URL}/mail/test`, headers: session })).statusCode).toBe(200);
      await patch(panel, session, { mail: { ...mail, password: 'wrong' } });
      const refused = await panel.app.inject({ method: 'POST', url: `${URL}/mail/test`, headers: session });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors[0].detail).toMatch(/^The mail server refused the username or password\./);

      // Removing them falls back to SMTP_URL.
      expect((await patch(panel, session, { mail: null })).json().attributes).toMatchObject({ mail: null, mail_source: 'environment' });
      expect((await panel.app.inject({ method: 'POST', url: `${URL}/mail/test`, headers: session })).statusCode).toBe(200);
      expect((await unused.next('root@example.com')).subject).toContain('test e-mail');
    } finally {
      await good.close();
      await unused.close();
    }
  });

  it('sends password-reset mail through stored settings on a panel without SMTP_URL', async ({ panel, admin }) => {
    const capture = await startMailCapture();
    try {
      expect((await panel.app.inject({ url: '/auth/password/status' })).json()).toEqual({ data: { mail: false } });
      const mail = { host: '127.0.0.1', port: capture.port, encryption: 'none', from_address: 'panel@example.com' };
      expect((await patch(panel, admin.session, { mail })).statusCode).toBe(200);
      expect((await panel.app.inject({ url: '/auth/password/status' })).json()).toEqual({ data: { mail: true } });
      const asked = await panel.app.inject({ method: 'POST', url: '/auth/password', payload: { email: 'root@example.com' } });
      expect(asked.statusCode, asked.body).toBeLessThan(300);
      expect((await capture.next('root@example.com')).text).toContain('/auth/password/reset/');
    } finally {
      await capture.close();
    }
  });

  it('says there is no mail server when neither settings nor SMTP_URL name one', async ({ panel, admin }) => {
    const res = await panel.app.inject({ method: 'POST', url: `${URL}/mail/test`, headers: admin.session });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].detail).toMatch(/No mail server is configured/);
  });
});

describe('required two-factor authentication (T-AUTH-6)', () => {
  it('holds a user without 2FA to the account and its 2FA setup until they enable it', async ({ panel, admin }) => {
    const user = await panel.user();
    const session = await panel.sessionHeaders(user);
    const get = (url: string) => panel.app.inject({ url, headers: session });
    expect((await get('/api/client')).statusCode).toBe(200);
    expect((await patch(panel, admin.session, { require_two_factor: 'everyone' })).statusCode).toBe(200);

    const refused = await get('/api/client');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({
      code: 'TwoFactorAuthRequiredException',
      detail: 'Two-factor authentication is required on this account in order to access this endpoint.',
    });
    expect((await get('/api/client/account/api-keys')).statusCode).toBe(400);
    expect((await get('/api/client/%61ccount/api-keys')).statusCode).toBe(400);
    const password = await panel.app.inject({ method: 'PUT', url: '/api/client/account/password', headers: session, payload: {} });
    expect(password.statusCode).toBe(400);
    expect((await get('/api/client/account')).statusCode).toBe(200);
    expect((await get('/api/client/account/two-factor')).statusCode).toBe(200);
    expect((await panel.app.inject({ url: '/api/panel', headers: session })).statusCode).toBe(200);
    expect((await panel.app.inject({ method: 'POST', url: '/auth/logout', headers: session })).statusCode).toBe(204);

    const enrolled = await panel.user();
    await panel.enableTotp(enrolled);
    expect((await panel.app.inject({ url: '/api/client', headers: await panel.sessionHeaders(enrolled) })).statusCode).toBe(200);
    expect((await panel.app.inject({ url: '/api/client', headers: await panel.bearerHeaders(user) })).statusCode).toBe(400);
  });

  it('at "admins" holds root admins only; "off" lets everyone through again', async ({ panel, admin }) => {
    const user = await panel.user();
    await patch(panel, admin.session, { require_two_factor: 'admins' });
    expect((await panel.app.inject({ url: '/api/client', headers: await panel.sessionHeaders(user) })).statusCode).toBe(200);
    expect((await panel.app.inject({ url: '/api/client', headers: admin.session })).statusCode).toBe(400);
    // The admin area stays open, so the policy can always be turned off again.
    expect((await patch(panel, admin.session, { require_two_factor: 'off' })).statusCode).toBe(200);
    expect((await panel.app.inject({ url: '/api/client', headers: admin.session })).statusCode).toBe(200);
  });
});
