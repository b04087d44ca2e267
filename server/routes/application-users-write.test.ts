import { describe, expect, vi } from 'vitest';
import { userCreatedSchema, userSchema } from '../../src/contract/users';
import type { UserRow } from '../db/schema';
import { socketTokenId } from '../services/node-tokens';
import { CookieJar, login } from '../test/auth-support';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

/*
 * The application API's user create and update (the reference's UserControllerTest and its rules):
 * 201 / 200 with the user resource, 422 naming the field for every body rule and for a taken
 * email, username or external id (nothing written), mass assignment of what the reference never
 * fills, and what a new password ends.
 */

type Body = Record<string, unknown>;
const send = (panel: TestPanel, method: 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload: Body) =>
  panel.app.inject({ method, url: `/api/application${url}`, headers, payload });

const VALID = { email: 'new@example.com', username: 'new.user', first_name: 'New', last_name: 'User' };

async function setup(panel: TestPanel) {
  const admin = await panel.user({ admin: true, email: 'boss@example.com', username: 'boss' });
  return { admin, key: await panel.applicationHeaders(admin) };
}

const userCount = async (panel: TestPanel) =>
  Number(
    (
      await panel.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const row = (panel: TestPanel, id: number) => panel.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const entries = (panel: TestPanel, event: string) =>
  panel.db.selectFrom('activity_logs').selectAll().where('event', '=', event).orderBy('id').execute();

describe('POST /api/application/users', () => {
  it('creates the user: 201 with the reference’s shape and meta.resource, language en, not an admin; they sign in with the password', async ({
    panel,
  }) => {
    const { admin, key } = await setup(panel);
    const res = await send(panel, 'POST', '/users', key, { ...VALID, password: 'a new password', external_id: 'whmcs-7' });
    expect(res.statusCode, res.body).toBe(201);
    const body = userCreatedSchema.parse(res.json());
    const stored = await row(panel, body.attributes.id);
    expect(res.json()).toEqual({
      object: 'user',
      attributes: {
        id: stored.id,
        external_id: 'whmcs-7',
        uuid: stored.uuid,
        username: 'new.user',
        email: 'new@example.com',
        first_name: 'New',
        last_name: 'User',
        language: 'en',
        root_admin: false,
        '2fa': false,
        created_at: stored.created_at,
        updated_at: stored.updated_at,
      },
      meta: { resource: expect.stringMatching(new RegExp(`/api/application/users/${stored.id}$`)) },
    });
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);

    const jar = new CookieJar();
    expect((await login(panel, jar, 'new.user', 'a new password')).statusCode).toBe(200);

    const [entry] = await entries(panel, 'admin:user.create');
    expect(entry).toMatchObject({ actor_id: admin.id, api_key_id: expect.any(Number) });
    expect(JSON.parse(entry?.properties ?? '{}')).toEqual({ email: 'new@example.com', username: 'new.user', admin: false });
    const subjects = await panel.db
      .selectFrom('activity_subjects')
      .selectAll()
      .where('activity_log_id', '=', entry?.id ?? 0)
      .execute();
    expect(subjects).toEqual([expect.objectContaining({ subject_type: 'user', subject_id: stored.id })]);
  });

  it('makes an admin when root_admin is true, in the language given', async ({ panel }) => {
    const { key } = await setup(panel);
    const res = await send(panel, 'POST', '/users', key, { ...VALID, password: 'a new password', root_admin: true, language: 'de' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().attributes).toMatchObject({ root_admin: true, language: 'de' });
  });

  it('refuses each invalid field with 422 naming it, and creates nobody', async ({ panel }) => {
    const { key } = await setup(panel);
    const before = await userCount(panel);
    const cases: [Body, string][] = [
      [{ ...VALID, email: undefined }, 'email'],
      [{ ...VALID, email: 'not-an-address' }, 'email'],
      [{ ...VALID, email: `${'a'.repeat(190)}@example.com` }, 'email'],
      [{ ...VALID, username: undefined }, 'username'],
      [{ ...VALID, username: 'Has Spaces' }, 'username'],
      [{ ...VALID, username: '-dash' }, 'username'],
      [{ ...VALID, username: 'u'.repeat(192) }, 'username'],
      [{ ...VALID, first_name: undefined }, 'first_name'],
      [{ ...VALID, first_name: '   ' }, 'first_name'],
      [{ ...VALID, last_name: 'x'.repeat(192) }, 'last_name'],
      [{ ...VALID, last_name: 42 }, 'last_name'],
      [{ ...VALID, password: 'short' }, 'password'],
      [{ ...VALID, language: 'klingon' }, 'language'],
      [{ ...VALID, root_admin: 'yes' }, 'root_admin'],
      [{ ...VALID, external_id: 'e'.repeat(192) }, 'external_id'],
      [{ ...VALID, external_id: 7 }, 'external_id'],
    ];
    for (const [payload, field] of cases) {
      const res = await send(panel, 'POST', '/users', key, payload);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(422);
      const errors = res.json().errors as { code: string; meta: { source_field: string } }[];
      expect(
        errors.map((e) => e.meta.source_field),
        field,
      ).toEqual([field]);
      expect(errors[0]?.code).toBe('ValidationException');
    }
    expect(await userCount(panel)).toBe(before);
  });

  it('refuses a taken email (any case), username or external id with 422 on that field, and creates nobody', async ({ panel }) => {
    const { key } = await setup(panel);
    const taken = await send(panel, 'POST', '/users', key, { ...VALID, external_id: 'ext-1', password: 'a new password' });
    expect(taken.statusCode).toBe(201);
    const before = await userCount(panel);
    const fresh = { email: 'other@example.com', username: 'other', first_name: 'O', last_name: 'P' };
    const cases: [Body, string[], string][] = [
      [{ ...fresh, email: 'NEW@example.com' }, ['email'], 'The email has already been taken.'],
      [{ ...fresh, username: 'new.user' }, ['username'], 'The username has already been taken.'],
      [{ ...fresh, external_id: 'ext-1' }, ['external_id'], 'The external id has already been taken.'],
      [{ ...VALID, external_id: 'ext-1' }, ['email', 'username', 'external_id'], 'The email has already been taken.'],
    ];
    for (const [payload, fields, detail] of cases) {
      const res = await send(panel, 'POST', '/users', key, payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.map((e: { meta: { source_field: string } }) => e.meta.source_field)).toEqual(fields);
      expect(res.json().errors[0].detail).toBe(detail);
    }
    expect(await userCount(panel)).toBe(before);
  });

  it('ignores fields the reference never fills: id, uuid, two-factor state, hashes', async ({ panel }) => {
    const { key } = await setup(panel);
    const res = await send(panel, 'POST', '/users', key, {
      ...VALID,
      password: 'a new password',
      id: 9999,
      uuid: '00000000-0000-4000-8000-000000000000',
      use_totp: 1,
      totp_secret: 'JBSWY3DPEHPK3PXP',
      password_hash: 'x',
      '2fa': true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const stored = await row(panel, res.json().attributes.id);
    expect(stored.id).not.toBe(9999);
    expect(stored.uuid).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(stored).toMatchObject({ use_totp: 0, totp_secret: null });
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('PATCH /api/application/users/:id', () => {
  const patch = (panel: TestPanel, user: UserRow, headers: Record<string, string>, payload: Body) =>
    send(panel, 'PATCH', `/users/${user.id}`, headers, payload);
  const same = (user: UserRow) => ({ email: user.email, username: user.username, first_name: user.name_first, last_name: user.name_last });

  it('changes the user and answers 200 with it; its own email and username are not “taken”', async ({ panel }) => {
    const { admin, key } = await setup(panel);
    const user = await panel.user({ email: 'ann@example.com', username: 'ann' });
    const res = await patch(panel, user, key, { ...same(user), email: 'ANN@example.com', first_name: 'Ann', external_id: 'crm-1', language: 'fr' });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await row(panel, user.id);
    expect(userSchema.parse(res.json()).attributes).toMatchObject({ id: user.id, email: 'ANN@example.com', first_name: 'Ann', external_id: 'crm-1' });
    expect(stored).toMatchObject({ email: 'ANN@example.com', username: 'ann', name_first: 'Ann', language: 'fr', external_id: 'crm-1' });
    const [entry] = await entries(panel, 'admin:user.update');
    expect(entry).toMatchObject({ actor_id: admin.id, api_key_id: expect.any(Number) });
    expect(JSON.parse(entry?.properties ?? '{}')).toMatchObject({
      email: 'ANN@example.com',
      changed: ['email', 'first_name', 'external_id', 'language'],
    });

    // Absent optional fields stay; an empty or null external id clears it.
    expect((await patch(panel, user, key, same(stored))).statusCode).toBe(200);
    expect(await row(panel, user.id)).toMatchObject({ external_id: 'crm-1', language: 'fr' });
    expect((await patch(panel, user, key, { ...same(stored), external_id: '' })).statusCode).toBe(200);
    expect((await row(panel, user.id)).external_id).toBeNull();
  });

  it('refuses another account’s email, username or external id, changing nothing', async ({ panel }) => {
    const { admin, key } = await setup(panel);
    const user = await panel.user({ email: 'ann@example.com', username: 'ann' });
    await panel.db.updateTable('users').set({ external_id: 'taken' }).where('id', '=', admin.id).execute();
    for (const [payload, field] of [
      [{ ...same(user), email: 'Boss@Example.com' }, 'email'],
      [{ ...same(user), username: 'boss' }, 'username'],
      [{ ...same(user), external_id: 'taken', first_name: 'Changed' }, 'external_id'],
      [{ ...same(user), first_name: '' }, 'first_name'],
      [{ ...same(user), password: 'short' }, 'password'],
    ] as const) {
      const res = await patch(panel, user, key, payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors[0].meta.source_field).toBe(field);
    }
    expect(await row(panel, user.id)).toEqual(user);
    expect(await entries(panel, 'admin:user.update')).toEqual([]);
  });

  it('ignores id, uuid, use_totp, totp_secret, password_hash and 2fa in the body', async ({ panel }) => {
    const { key } = await setup(panel);
    const user = await panel.user();
    const res = await patch(panel, user, key, {
      ...same(user),
      id: user.id + 100,
      uuid: '00000000-0000-4000-8000-000000000000',
      use_totp: 1,
      totp_secret: 'JBSWY3DPEHPK3PXP',
      password_hash: 'plain',
      '2fa': true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await row(panel, user.id)).toEqual(user);
    expect(await entries(panel, 'admin:user.update')).toEqual([]);
  });

  it('a new password: the old one stops working, the user’s sessions end and their console tokens are revoked', async ({ panel }) => {
    const { key } = await setup(panel);
    const user = await panel.user({ username: 'ann', email: 'ann@example.com' });
    const server = await panel.server(user);
    const session = await panel.sessionHeaders(user);
    const revoke = vi.spyOn(panel.daemon.servers, 'revokeSocketTokens');
    const res = await patch(panel, user, key, { ...same(user), password: 'another password' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await panel.app.inject({ url: '/api/client/account', headers: session })).statusCode).toBe(401);
    expect(revoke).toHaveBeenCalledWith(server.uuid, [socketTokenId(user.id, server.uuid)]);
    expect((await login(panel, new CookieJar(), 'ann')).statusCode).toBe(400);
    expect((await login(panel, new CookieJar(), 'ann', 'another password')).statusCode).toBe(200);
    const [entry] = await entries(panel, 'admin:user.update');
    expect(JSON.parse(entry?.properties ?? '{}')).toMatchObject({ changed: ['password'] });
    expect(entry?.properties).not.toContain('another password');
  });

  it('an admin changing their own password in the admin area keeps that session; a demoted admin’s console tokens go', async ({ panel }) => {
    const { admin } = await setup(panel);
    const session = await panel.sessionHeaders(admin);
    const other = await panel.sessionHeaders(admin);
    const res = await patch(panel, admin, session, { ...same(admin), password: 'another password' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await panel.app.inject({ url: '/api/client/account', headers: session })).statusCode).toBe(200);
    expect((await panel.app.inject({ url: '/api/client/account', headers: other })).statusCode).toBe(401);

    const owner = await panel.user();
    const server = await panel.server(owner);
    const colleague = await panel.user({ admin: true });
    const revoke = vi.spyOn(panel.daemon.servers, 'revokeSocketTokens');
    expect((await patch(panel, colleague, session, { ...same(colleague), root_admin: false })).statusCode).toBe(200);
    expect(revoke).toHaveBeenCalledWith(server.uuid, [socketTokenId(colleague.id, server.uuid)]);
    expect((await row(panel, colleague.id)).root_admin).toBe(0);
  });

  it('answers 404 for a user that does not exist, even with a body that would be refused', async ({ panel }) => {
    const { key } = await setup(panel);
    // The reference binds the user before it validates the body: the 404 comes first.
    for (const [path, body] of [
      ['/users/99999', VALID],
      ['/users/abc', VALID],
      ['/users/99999', { email: 'not an address', root_admin: 'yes' }],
    ] as const) {
      const res = await send(panel, 'PATCH', path, key, body);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().errors[0].detail).toBe('The requested resource does not exist on this server.');
    }
  });
});
