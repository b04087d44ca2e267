import { describe, expect } from 'vitest';
import { userListSchema, userSchema } from '../../src/contract/users';
import type { UserRow } from '../db/schema';
import { CookieJar, login, postJson } from '../test/auth-support';
import { test } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { resetLinkIn, startMailCapture } from '../test/mail-capture';

/*
 * The application API's user writes seen from who may call them (attacks T-AZ-6: read-only and
 * narrow keys, client keys, non-admins, a session without its CSRF header), and the delete, the
 * two-factor switch-off, the password link and `include=servers`.
 */

const it = test
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
  .extend('smtp', async ({}, { onCleanup }) => {
    const capture = await startMailCapture();
    onCleanup(() => capture.close());
    return capture;
  })
  .extend('mailPanel', async ({ makePanel, smtp }) => makePanel({ smtpUrl: smtp.url, appUrl: 'https://panel.example.com/' }));

type Headers = Record<string, string>;
const call = (panel: TestPanel, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: object) =>
  panel.app.inject({ method, url: `/api/application${url}`, headers, ...(payload ? { payload } : {}) });
const row = (panel: TestPanel, id: number) => panel.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
const entries = (panel: TestPanel, event: string) =>
  panel.db.selectFrom('activity_logs').selectAll().where('event', '=', event).orderBy('id').execute();
const bodyOf = (user: UserRow) => ({
  email: user.email,
  username: user.username,
  first_name: 'Changed',
  last_name: user.name_last,
  password: 'x'.repeat(12),
});

/** Every write on `target`, as [method, path, body]. */
const writes = (target: UserRow): ['POST' | 'PATCH' | 'DELETE', string, object?][] => [
  ['POST', '/users', { email: 'n@example.com', username: 'n', first_name: 'N', last_name: 'N', password: 'a new password' }],
  ['PATCH', `/users/${target.id}`, bodyOf(target)],
  ['DELETE', `/users/${target.id}/two-factor`],
  ['POST', `/users/${target.id}/password-reset`],
  ['DELETE', `/users/${target.id}`],
];

describe('user writes: who may make them', () => {
  it('refuses a read-only key and a key without users (403), a client key (401), a non-admin (403) and a session without CSRF (419); nothing changes', async ({
    panel,
  }) => {
    const admin = await panel.user({ admin: true });
    const plain = await panel.user();
    const target = await panel.user({ email: 'target@example.com' });
    await panel.enableTotp(target);
    const before = await row(panel, target.id);
    const session = await panel.sessionHeaders(admin);
    const callers: [string, Headers, number][] = [
      ['read-only key', await panel.applicationHeaders(admin, { users: 1 }), 403],
      ['key without users', await panel.applicationHeaders(admin, { servers: 3 }), 403],
      ['client key', await panel.bearerHeaders(admin), 401],
      ['no key', {}, 401],
      ['non-admin session', await panel.sessionHeaders(plain), 403],
      ['non-admin application key', await panel.applicationHeaders(plain), 403],
      ['admin session without CSRF', { cookie: session.cookie ?? '' }, 419],
    ];
    for (const [who, headers, status] of callers) {
      for (const [method, path, payload] of writes(target)) {
        const res = await call(panel, method, path, headers, payload);
        expect(res.statusCode, `${who} ${method} ${path}: ${res.body}`).toBe(status);
      }
    }
    expect(await row(panel, target.id)).toEqual(before);
    expect(await panel.db.selectFrom('users').select('email').where('email', '=', 'n@example.com').executeTakeFirst()).toBeUndefined();
    expect(await panel.db.selectFrom('activity_logs').select('event').where('event', 'like', 'admin:%').execute()).toEqual([]);
  });

  it('lets a root admin’s session (with its CSRF header) write; its entries carry no key', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const target = await panel.user();
    const res = await call(panel, 'PATCH', `/users/${target.id}`, await panel.sessionHeaders(admin), bodyOf(target));
    expect(res.statusCode, res.body).toBe(200);
    expect(await entries(panel, 'admin:user.update')).toEqual([expect.objectContaining({ actor_id: admin.id, api_key_id: null })]);
  });
});

describe('DELETE /api/application/users/:id', () => {
  it('refuses while the user owns servers, naming them; the user stays', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const owner = await panel.user({ email: 'owner@example.com' });
    const alpha = await panel.server(owner, { name: 'Alpha' });
    const beta = await panel.server(owner, { name: 'Beta' });
    const res = await call(panel, 'DELETE', `/users/${owner.id}`, await panel.applicationHeaders(admin));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      errors: [
        {
          code: 'DisplayException',
          status: '400',
          detail: `Cannot delete a user with active servers attached to their account: owner@example.com owns 2 servers: Alpha (${alpha.uuid_short}), Beta (${beta.uuid_short}).`,
        },
      ],
    });
    expect(await row(panel, owner.id)).toBeDefined();
    expect(await entries(panel, 'admin:user.delete')).toEqual([]);
  });

  it('deletes the user (204): sessions, keys and subuser places go, and each server they shared logs it', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const owner = await panel.user();
    const server = await panel.server(owner);
    const user = await panel.user({ email: 'leaving@example.com' });
    await panel.subuser(server, user, ['control.console']);
    const [session, key] = [await panel.sessionHeaders(user), await panel.bearerHeaders(user)];
    const res = await call(panel, 'DELETE', `/users/${user.id}`, await panel.applicationHeaders(admin));
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(await row(panel, user.id)).toBeUndefined();
    for (const headers of [session, key]) expect((await panel.app.inject({ url: '/api/client/account', headers })).statusCode).toBe(401);
    expect(await panel.db.selectFrom('subusers').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
    const [entry] = await entries(panel, 'admin:user.delete');
    expect(entry).toMatchObject({ actor_id: admin.id, api_key_id: expect.any(Number) });
    expect(JSON.parse(entry?.properties ?? '{}')).toMatchObject({ email: 'leaving@example.com' });
    expect(await entries(panel, 'server:subuser.delete')).toHaveLength(1);
    expect((await call(panel, 'DELETE', `/users/${user.id}`, await panel.applicationHeaders(admin))).statusCode).toBe(404);
  });
});

describe('DELETE /api/application/users/:id/two-factor', () => {
  it('turns two-factor off and removes the recovery tokens (204); the user signs in with the password alone', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const user = await panel.user({ username: 'locked' });
    await panel.enableTotp(user);
    const res = await call(panel, 'DELETE', `/users/${user.id}/two-factor`, await panel.applicationHeaders(admin));
    expect(res.statusCode, res.body).toBe(204);
    expect(await row(panel, user.id)).toMatchObject({ use_totp: 0, totp_secret: null });
    expect(await panel.db.selectFrom('recovery_tokens').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
    const signIn = await login(panel, new CookieJar(), 'locked');
    expect(signIn.json().data.complete).toBe(true);
    expect(await entries(panel, 'admin:user.two-factor.delete')).toEqual([expect.objectContaining({ actor_id: admin.id })]);
  });
});

describe('POST /api/application/users/:id/password-reset', () => {
  it('without mail, answers the link; it sets a new password', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const user = await panel.user({ email: 'ann@example.com', username: 'ann' });
    const res = await call(panel, 'POST', `/users/${user.id}/password-reset`, await panel.applicationHeaders(admin));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      mailed: false,
      link: expect.stringMatching(/\/auth\/password\/reset\/[A-Za-z0-9_-]{43}\?email=ann%40example\.com$/),
    });
    await setPasswordWith(panel, new URL(res.json().link as string));
    expect((await login(panel, new CookieJar(), 'ann', 'the password I chose')).statusCode).toBe(200);
  });

  it('with mail, mails the link to the user and does not show it', async ({ mailPanel, smtp }) => {
    const admin = await mailPanel.user({ admin: true });
    const user = await mailPanel.user({ email: 'ann@example.com' });
    const res = await call(mailPanel, 'POST', `/users/${user.id}/password-reset`, await mailPanel.applicationHeaders(admin));
    expect(res.json()).toEqual({ mailed: true });
    const mail = await smtp.next('ann@example.com');
    expect(mail.subject).toBe('Aerie: reset your password');
    expect(resetLinkIn(mail).origin).toBe('https://panel.example.com');
  });

  it('mails speak in the panel name the admin set, not APP_NAME', async ({ mailPanel, smtp }) => {
    const admin = await mailPanel.user({ admin: true });
    const user = await mailPanel.user({ email: 'ann@example.com' });
    const headers = await mailPanel.applicationHeaders(admin);
    const renamed = await mailPanel.app.inject({
      method: 'PATCH',
      url: '/api/application/settings',
      headers: await mailPanel.sessionHeaders(admin),
      payload: { panel_name: 'Acme Hosting' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await call(mailPanel, 'POST', `/users/${user.id}/password-reset`, headers);
    const mail = await smtp.next('ann@example.com');
    expect(mail.subject).toBe('Acme Hosting: reset your password');
    expect(mail.text).toContain('An administrator of Acme Hosting sent you a link');
  });

  it('a user created without a password is mailed an invitation whose link sets it', async ({ mailPanel, smtp }) => {
    const admin = await mailPanel.user({ admin: true });
    const payload = { email: 'invited@example.com', username: 'invited', first_name: 'In', last_name: 'Vited' };
    const res = await call(mailPanel, 'POST', '/users', await mailPanel.applicationHeaders(admin), payload);
    expect(res.statusCode, res.body).toBe(201);
    const mail = await smtp.next('invited@example.com');
    expect(mail.subject).toBe('Aerie: an account was created for you');
    const link = resetLinkIn(mail);
    expect(link.searchParams.get('invite')).toBe('1');
    await setPasswordWith(mailPanel, link);
    expect((await login(mailPanel, new CookieJar(), 'invited', 'the password I chose')).statusCode).toBe(200);
  });
});

async function setPasswordWith(panel: TestPanel, link: URL): Promise<void> {
  const token = decodeURIComponent(link.pathname.split('/').pop() ?? '');
  const email = link.searchParams.get('email') ?? '';
  const password = 'the password I chose';
  const res = await postJson(panel, '/auth/password/reset', { token, email, password, password_confirmation: password });
  expect(res.statusCode, res.body).toBe(200);
}

describe('include=servers', () => {
  it('adds the user’s servers on list, view and external id; a key that cannot read servers gets a null resource', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const owner = await panel.user();
    await panel.db.updateTable('users').set({ external_id: 'ext-9' }).where('id', '=', owner.id).execute();
    const server = await panel.server(owner, { name: 'Alpha' });
    const key = await panel.applicationHeaders(admin);

    const view = await call(panel, 'GET', `/users/${owner.id}?include=servers`, key);
    expect(view.statusCode, view.body).toBe(200);
    const servers = userSchema.parse(view.json()).attributes.relationships?.servers;
    expect(servers).toEqual({ object: 'list', data: [{ object: 'server', attributes: expect.objectContaining({ id: server.id, name: 'Alpha' }) }] });
    expect(view.json().attributes.relationships.servers.data[0].attributes).toMatchObject({
      uuid: server.uuid,
      identifier: server.uuid_short,
      user: owner.id,
      node: server.node_id,
      egg: server.egg_id,
      limits: { memory: server.memory, disk: server.disk },
      container: { image: server.docker_image, environment: expect.objectContaining({ P_SERVER_UUID: server.uuid }) },
    });
    const external = await call(panel, 'GET', '/users/external/ext-9?include=servers', key);
    expect(external.json().attributes.relationships.servers.data).toHaveLength(1);

    const list = userListSchema.parse((await call(panel, 'GET', '/users?include=servers,unknown', key)).json());
    expect(list.data.map((u) => u.attributes.relationships?.servers)).toEqual([{ object: 'list', data: [] }, servers]);
    expect((await call(panel, 'GET', `/users/${owner.id}`, key)).json().attributes).not.toHaveProperty('relationships');

    const usersOnly = await panel.applicationHeaders(admin, { users: 1 });
    const withheld = await call(panel, 'GET', `/users/${owner.id}?include=servers`, usersOnly);
    expect(withheld.json().attributes.relationships).toEqual({ servers: { object: 'null_resource', attributes: null } });
  });
});
