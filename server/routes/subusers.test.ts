import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, onTestFinished } from 'vitest';
import WebSocket from 'ws';
import type { ServerRow, UserRow } from '../db/schema';
import { PASSWORD, postJson } from '../test/auth-support';
import { test } from '../test/fixtures';
import { eventually } from '../test/game-support';
import type { TestPanel } from '../test/harness';
import { nodePath } from '../test/files-support';
import { resetLinkIn, startMailCapture } from '../test/mail-capture';
import { listen } from '../test/raw-http';

/*
 * The users tab's API: who may list, add, change and remove subusers (owner, admin, subusers with
 * and without `user.*`, a stranger), the subset rule, normalisation, the reference's refusals,
 * activity entries, the set-password link of a new account, and open consoles losing their token.
 */

type Method = 'GET' | 'POST' | 'DELETE';

async function setup(panel: TestPanel) {
  const owner = await panel.user();
  const server = await panel.server(owner);
  const base = `/api/client/servers/${server.uuid}/users`;
  const call = async (as: UserRow, method: Method, path = '', payload?: object) =>
    panel.app.inject({ method, url: base + path, headers: await panel.bearerHeaders(as), ...(payload ? { payload } : {}) });
  /** A new account made a subuser of the server. */
  const member = async (permissions: string[], on: ServerRow = server) => {
    const user = await panel.user();
    await panel.subuser(on, user, permissions);
    return user;
  };
  const events = async () =>
    (
      await panel.db
        .selectFrom('activity_logs')
        .select(['id', 'event', 'properties'])
        .where('event', 'like', 'server:subuser.%')
        .orderBy('id')
        .execute()
    ).map((r) => ({ event: r.event, properties: JSON.parse(r.properties) as unknown, id: r.id }));
  const stored = async (user: UserRow) =>
    panel.db.selectFrom('subusers').selectAll().where('server_id', '=', server.id).where('user_id', '=', user.id).executeTakeFirst();
  return { owner, server, base, call, member, events, stored };
}

const it = test.extend('su', async ({ panel }) => setup(panel));

describe('subusers: who may do what', () => {
  it('answers each caller on every endpoint as its permissions say', async ({ panel, su }) => {
    const actors = {
      owner: su.owner,
      admin: await panel.user({ admin: true }),
      manager: await su.member(['user.create', 'user.read', 'user.update', 'user.delete', 'control.console']),
      reader: await su.member(['user.read']),
      none: await su.member(['control.console']),
      stranger: await panel.user(),
    };
    const expected: Record<string, Record<keyof typeof actors, number>> = {
      list: { owner: 200, admin: 200, manager: 200, reader: 200, none: 403, stranger: 404 },
      view: { owner: 200, admin: 200, manager: 200, reader: 200, none: 403, stranger: 404 },
      create: { owner: 200, admin: 200, manager: 200, reader: 403, none: 403, stranger: 404 },
      update: { owner: 200, admin: 200, manager: 200, reader: 403, none: 403, stranger: 404 },
      delete: { owner: 204, admin: 204, manager: 204, reader: 403, none: 403, stranger: 404 },
    };
    let n = 0;
    for (const [name, as] of Object.entries(actors) as [keyof typeof actors, UserRow][]) {
      const victim = await su.member(['control.console']);
      n += 1;
      // An existing account: without mail a new address is refused (issue 22 #10, tested below).
      const invitee = await panel.user({ email: `new${n}@example.com` });
      const got = {
        list: (await su.call(as, 'GET')).statusCode,
        view: (await su.call(as, 'GET', `/${victim.uuid}`)).statusCode,
        create: (await su.call(as, 'POST', '', { email: invitee.email, permissions: ['control.console'] })).statusCode,
        update: (await su.call(as, 'POST', `/${victim.uuid}`, { permissions: ['control.console', 'user.read'] })).statusCode,
        delete: (await su.call(as, 'DELETE', `/${victim.uuid}`)).statusCode,
      };
      for (const [endpoint, status] of Object.entries(got))
        expect({ name, endpoint, status }).toEqual({ name, endpoint, status: expected[endpoint]?.[name] });
    }
  });

  it('lists the subusers with the reference fields; a plain array of permissions', async ({ su }) => {
    const sub = await su.member(['file.read', 'file.read', 'control.console']);
    const res = await su.call(su.owner, 'GET');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      object: 'list',
      data: [
        {
          object: 'server_subuser',
          attributes: {
            uuid: sub.uuid,
            identifier: sub.uuid.slice(0, 8),
            username: sub.username,
            email: sub.email,
            image: expect.stringMatching(/^https:\/\/gravatar\.com\/avatar\/[0-9a-f]{32}$/),
            '2fa_enabled': false,
            created_at: sub.created_at,
            permissions: ['websocket.connect', 'file.read', 'control.console'],
          },
        },
      ],
    });
  });

  it('is 403 on yourself, 404 for a uuid that is no subuser of this server', async ({ panel, su }) => {
    const manager = await su.member(['user.create', 'user.read', 'user.update', 'user.delete']);
    expect((await su.call(manager, 'GET', `/${manager.uuid}`)).statusCode).toBe(403);
    expect((await su.call(manager, 'POST', `/${manager.uuid}`, { permissions: ['user.read'] })).statusCode).toBe(403);
    expect((await su.call(manager, 'DELETE', `/${manager.uuid}`)).statusCode).toBe(403);
    expect(await su.stored(manager)).toBeDefined();

    const elsewhere = await su.member(['control.console'], await panel.server(su.owner));
    for (const uuid of [elsewhere.uuid, su.owner.uuid, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await su.call(su.owner, 'GET', `/${uuid}`)).statusCode).toBe(404);
      expect((await su.call(su.owner, 'POST', `/${uuid}`, { permissions: ['user.read'] })).statusCode).toBe(404);
      expect((await su.call(su.owner, 'DELETE', `/${uuid}`)).statusCode).toBe(404);
    }
    // The path's subuser is looked up first (the reference's route binding): 404 before 403 and 409.
    const none = await su.member(['control.console']);
    const missing = await su.call(none, 'GET', `/${elsewhere.uuid}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].detail).toBe('The requested resource could not be found on the server.');
    expect((await su.call(none, 'GET', `/${manager.uuid}`)).statusCode).toBe(403);
    await panel.db.updateTable('servers').set({ status: 'suspended' }).where('id', '=', su.server.id).execute();
    expect((await su.call(su.owner, 'DELETE', `/${elsewhere.uuid}`)).statusCode).toBe(404);
    expect((await su.call(su.owner, 'DELETE', `/${manager.uuid}`)).statusCode).toBe(409);
  });
});

describe('subusers: adding', () => {
  it('the subset rule: a subuser grants only what they hold, unknown strings included, before validation', async ({ panel, su }) => {
    const manager = await su.member(['user.create', 'control.console']);
    const refused = {
      errors: [
        {
          code: 'HttpForbiddenException',
          status: '403',
          detail: 'Cannot assign permissions to a subuser that your account does not actively possess.',
        },
      ],
    };
    for (const permissions of [['control.console', 'foo.bar'], ['control.start'], ['control.console', 'user.read']]) {
      const res = await su.call(manager, 'POST', '', { email: 'x@example.com', permissions });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(refused);
    }
    // Checked on the raw input, before the email is looked at.
    expect((await su.call(manager, 'POST', '', { email: 'bad', permissions: ['foo.bar'] })).statusCode).toBe(403);
    expect(await panel.db.selectFrom('users').select('id').where('email', '=', 'x@example.com').executeTakeFirst()).toBeUndefined();

    await panel.user({ email: 'x@example.com' });
    const ok = await su.call(manager, 'POST', '', { email: 'x@example.com', permissions: ['control.console', 'control.console'] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().attributes.permissions).toEqual(['websocket.connect', 'control.console']);
  });

  it('owners and admins may send anything: unknown strings dropped, websocket.connect added, duplicates removed', async ({ panel, su }) => {
    const admin = await panel.user({ admin: true });
    await panel.user({ email: 'y@example.com' });
    const res = await su.call(admin, 'POST', '', {
      email: 'y@example.com',
      permissions: ['foo.bar', 'file.read', 'file.read', 'websocket.connect', '*'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      object: 'server_subuser',
      attributes: { email: 'y@example.com', identifier: expect.stringMatching(/^[0-9a-f]{8}$/), permissions: ['websocket.connect', 'file.read'] },
    });
    const user = await panel.db.selectFrom('users').selectAll().where('email', '=', 'y@example.com').executeTakeFirstOrThrow();
    expect(JSON.parse((await su.stored(user))?.permissions ?? '')).toEqual(['websocket.connect', 'file.read']);
  });

  it('validates the email (422 on the field) and wants a non-empty permissions array', async ({ su }) => {
    const cases: [object, string][] = [
      [{ email: `${'a'.repeat(186)}@x.com`, permissions: ['file.read'] }, 'email'],
      [{ email: 'not an address', permissions: ['file.read'] }, 'email'],
      [{ permissions: ['file.read'] }, 'email'],
      [{ email: 'a@b.co', permissions: [] }, 'permissions'],
      [{ email: 'a@b.co', permissions: 'file.read' }, 'permissions'],
      [{ email: 'a@b.co' }, 'permissions'],
    ];
    for (const [payload, field] of cases) {
      const res = await su.call(su.owner, 'POST', '', payload);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ code: 'ValidationException', source: { field } });
    }
    expect((await su.call(su.owner, 'GET')).json().data).toEqual([]);
  });

  it("refuses the owner and an existing subuser with the reference's 400s; links an existing account", async ({ panel, su }) => {
    const owner = await su.call(su.owner, 'POST', '', { email: su.owner.email, permissions: ['file.read'] });
    expect(owner.statusCode).toBe(400);
    expect(owner.json().errors[0]).toMatchObject({
      code: 'UserIsServerOwnerException',
      detail: 'You cannot add the server owner as a subuser for this server.',
    });
    const existing = await su.member(['file.read']);
    const again = await su.call(su.owner, 'POST', '', { email: existing.email.toUpperCase(), permissions: ['file.read'] });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[0]).toMatchObject({
      code: 'ServerSubuserExistsException',
      detail: 'A user with that email address is already assigned as a subuser for this server.',
    });
    const account = await panel.user();
    const linked = await su.call(su.owner, 'POST', '', { email: account.email, permissions: ['file.read'] });
    expect(linked.statusCode).toBe(200);
    expect(linked.json().attributes.uuid).toBe(account.uuid);
    expect(linked.json().meta).toBeUndefined();
  });

  it('two requests adding the same address at once: one subuser, the other a 400', async ({ makePanel }) => {
    // With mail, as only then does an unknown address get an account.
    const smtp = await startMailCapture();
    onTestFinished(() => smtp.close());
    const panel = await makePanel({ smtpUrl: smtp.url, appUrl: 'https://panel.example.com/' });
    const su = await setup(panel);
    const account = await panel.user();
    for (const email of [account.email, 'fresh@example.com']) {
      const results = await Promise.all([1, 2, 3].map(() => su.call(su.owner, 'POST', '', { email, permissions: ['file.read'] })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
      for (const r of results.filter((x) => x.statusCode === 400)) expect(r.json().errors[0].code).toBe('ServerSubuserExistsException');
    }
    expect((await su.call(su.owner, 'GET')).json().data).toHaveLength(2);
  });

  it('without mail, an unknown address gets no account and the inviter no link; a later share gives the inviter nothing (issue 22 #10)', async ({
    panel,
    su,
  }) => {
    const email = 'Ann.Smith+games@example.com';
    const res = await su.call(su.owner, 'POST', '', { email, permissions: ['file.read'] });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.errors[0]).toMatchObject({ code: 'ValidationException', source: { field: 'email' } });
    expect(body.errors[0].detail).toMatch(/configure mail/);
    expect(JSON.stringify(body)).not.toMatch(/password\/reset/);
    expect(await panel.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    expect(await panel.db.selectFrom('password_resets').selectAll().execute()).toEqual([]);
    expect(await su.events()).toEqual([]);

    // The person gets an account of their own; another owner shares a server with them.
    const ann = await panel.user({ email });
    const other = await panel.user();
    const theirs = await panel.server(other);
    const shared = await panel.app.inject({
      method: 'POST',
      url: `/api/client/servers/${theirs.uuid}/users`,
      headers: await panel.bearerHeaders(other),
      payload: { email, permissions: ['file.read'] },
    });
    expect(shared.statusCode).toBe(200);
    expect(shared.json().meta).toBeUndefined();
    // The first inviter holds nothing that resets Ann's password, and cannot reach the shared server.
    const reset = await postJson(panel, '/auth/password/reset', {
      email,
      token: 'x',
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
    expect(reset.statusCode).not.toBe(200);
    const reach = await panel.app.inject({ method: 'GET', url: `/api/client/servers/${theirs.uuid}`, headers: await panel.bearerHeaders(su.owner) });
    expect(reach.statusCode).toBe(404);
    expect(ann.email).toBe(email);
  });

  it('mails a new account its set-password link when SMTP is configured', async ({ makePanel }) => {
    const smtp = await startMailCapture();
    onTestFinished(() => smtp.close());
    const panel = await makePanel({ smtpUrl: smtp.url, appUrl: 'https://panel.example.com/' });
    const su = await setup(panel);
    const res = await su.call(su.owner, 'POST', '', { email: 'bob@example.com', permissions: ['file.read'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toBeUndefined();
    const mail = await smtp.next('bob@example.com');
    expect(mail.subject).toBe('Aerie: an account was created for you');
    const link = resetLinkIn(mail);
    expect(link.origin).toBe('https://panel.example.com');
    expect(link.searchParams.get('email')).toBe('bob@example.com');
  });

  it('an invite mail says "Set your password", its link marked as an invite, on the address the panel listens on (issue 22 polish)', async ({
    makePanel,
  }) => {
    const smtp = await startMailCapture();
    onTestFinished(() => smtp.close());
    const panel = await makePanel({ smtpUrl: smtp.url, host: '127.0.0.1' });
    const port = await listen(panel.app);
    const su = await setup(panel);
    const res = await su.call(su.owner, 'POST', '', { email: 'carol@example.com', permissions: ['file.read'] });
    expect(res.statusCode).toBe(200);
    const mail = await smtp.next('carol@example.com');
    expect(mail.text).toContain('Set your password here within 60 minutes');
    const link = resetLinkIn(mail);
    // As the start-up box says it: no APP_URL, so the listen address and the port really bound.
    expect(link.origin).toBe(`http://127.0.0.1:${port}`);
    expect(link.searchParams.get('invite')).toBe('1');
  });

  it('tells an existing account it was added, with a link to the server, and hands out no set-password link', async ({ makePanel }) => {
    const smtp = await startMailCapture();
    onTestFinished(() => smtp.close());
    const panel = await makePanel({ smtpUrl: smtp.url, appUrl: 'https://panel.example.com/' });
    const su = await setup(panel);
    const account = await panel.user();
    const res = await su.call(su.owner, 'POST', '', { email: account.email, permissions: ['file.read'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toBeUndefined();
    const mail = await smtp.next(account.email);
    expect(mail.subject).toBe('Aerie: you were added to a server');
    expect(mail.text).toContain(`https://panel.example.com/server/${su.server.uuid.slice(0, 8)}`);
    expect(mail.text).not.toContain('/auth/password/reset');
  });
});

describe('subusers: changing and removing', () => {
  it('an update writes and logs old and new; the same set again writes nothing and logs nothing', async ({ panel, su }) => {
    const sub = await su.member(['file.read', 'user.read']);
    const before = await su.stored(sub);
    panel.clock.advance(5000);
    const same = await su.call(su.owner, 'POST', `/${sub.uuid}`, { permissions: ['user.read', 'file.read', 'websocket.connect', 'foo.bar'] });
    expect(same.statusCode).toBe(200);
    expect(await su.stored(sub)).toEqual(before);
    expect(await su.events()).toEqual([]);

    const res = await su.call(su.owner, 'POST', `/${sub.uuid}`, { permissions: ['file.read'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes.permissions).toEqual(['websocket.connect', 'file.read']);
    expect((await su.events()).map(({ event, properties }) => ({ event, properties }))).toEqual([
      {
        event: 'server:subuser.update',
        properties: {
          email: sub.email,
          old: ['websocket.connect', 'file.read', 'user.read'],
          new: ['websocket.connect', 'file.read'],
          revoked: true,
        },
      },
    ]);
    // The subuser's next request sees the change.
    expect((await su.call(sub, 'GET')).statusCode).toBe(403);
  });

  it('a subuser updating another is held to the subset rule; the subject of each entry is the subuser', async ({ panel, su }) => {
    const manager = await su.member(['user.update', 'file.read']);
    const sub = await su.member(['file.read']);
    expect((await su.call(manager, 'POST', `/${sub.uuid}`, { permissions: ['file.read', 'file.update'] })).statusCode).toBe(403);
    expect((await su.call(manager, 'POST', `/${sub.uuid}`, { permissions: ['file.read', 'nope'] })).statusCode).toBe(403);
    expect((await su.call(manager, 'POST', `/${sub.uuid}`, { permissions: [] })).statusCode).toBe(422);
    expect(await su.events()).toEqual([]);

    expect((await su.call(su.owner, 'DELETE', `/${sub.uuid}`)).statusCode).toBe(204);
    expect(await su.stored(sub)).toBeUndefined();
    const [entry] = await su.events();
    expect(entry?.properties).toEqual({ email: sub.email, revoked: true });
    const subjects = await panel.db
      .selectFrom('activity_subjects')
      .selectAll()
      .where('activity_log_id', '=', entry?.id ?? 0)
      .execute();
    expect(subjects).toEqual(expect.arrayContaining([expect.objectContaining({ subject_type: 'user', subject_id: sub.id })]));
    // Gone at once: the server is no longer theirs.
    expect((await su.call(sub, 'GET', '', undefined)).statusCode).toBe(404);
  });
});

describe('subusers: at the same time', () => {
  it('deletes and updates racing a delete: one 204 and one entry, the rest 404', async ({ su }) => {
    const sub = await su.member(['file.read']);
    const results = await Promise.all([
      su.call(su.owner, 'DELETE', `/${sub.uuid}`),
      su.call(su.owner, 'DELETE', `/${sub.uuid}`),
      su.call(su.owner, 'POST', `/${sub.uuid}`, { permissions: ['file.update'] }),
    ]);
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 204)).toHaveLength(1);
    expect(statuses.every((s) => [200, 204, 404].includes(s))).toBe(true);
    expect(await su.stored(sub)).toBeUndefined();
    expect((await su.events()).filter((e) => e.event === 'server:subuser.delete')).toHaveLength(1);
  });
});

describe('subusers: signed links', () => {
  it("a narrowed or removed subuser's unused download and upload links stop working (attacks T-SESS-4)", async ({ panel, su }) => {
    fs.writeFileSync(path.join(panel.daemon.volumePath(su.server.uuid), 'world.dat'), 'secret world');
    const sub = await su.member(['file.read', 'file.read-content', 'file.create']);
    const headers = await panel.bearerHeaders(sub);
    const sign = async () => ({
      download: nodePath(
        (await panel.app.inject({ method: 'GET', url: `/api/client/servers/${su.server.uuid}/files/download?file=world.dat`, headers })).json(),
      ),
      upload: nodePath((await panel.app.inject({ method: 'GET', url: `/api/client/servers/${su.server.uuid}/files/upload`, headers })).json()),
    });
    const before = await sign();
    const spare = await sign();
    // Links work until the rights change (each once).
    expect((await panel.app.inject({ method: 'GET', url: spare.download })).body).toBe('secret world');

    panel.clock.advance(1000);
    expect((await su.call(su.owner, 'POST', `/${sub.uuid}`, { permissions: ['file.read'] })).statusCode).toBe(200);
    const refused = await panel.app.inject({ method: 'GET', url: before.download });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('secret world');
    const upload = await panel.app.inject({
      method: 'POST',
      url: before.upload,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="files"; filename="planted.txt"\r\n\r\nx\r\n--b--\r\n',
    });
    expect(upload.statusCode).toBe(403);
    expect(fs.existsSync(path.join(panel.daemon.volumePath(su.server.uuid), 'planted.txt'))).toBe(false);

    // Links signed after a change work; a removal ends them the same way.
    expect((await su.call(su.owner, 'POST', `/${sub.uuid}`, { permissions: ['file.read', 'file.read-content', 'file.create'] })).statusCode).toBe(
      200,
    );
    panel.clock.advance(1000);
    const [used, kept] = [await sign(), await sign()];
    expect((await panel.app.inject({ method: 'GET', url: used.download })).body).toBe('secret world');
    panel.clock.advance(1000);
    expect((await su.call(su.owner, 'DELETE', `/${sub.uuid}`)).statusCode).toBe(204);
    expect((await panel.app.inject({ method: 'GET', url: kept.download })).statusCode).toBe(403);
  });
});

/** A real console socket of `user` on `server`, authorised with a token the panel signed. */
async function openConsole(panel: TestPanel, port: number, user: UserRow, server: ServerRow) {
  const res = await panel.app.inject({
    method: 'GET',
    url: `/api/client/servers/${server.uuid}/websocket`,
    headers: { ...(await panel.bearerHeaders(user)), host: `127.0.0.1:${port}` },
  });
  const { token, socket } = res.json().data as { token: string; socket: string };
  const ws = new WebSocket(socket, { origin: `http://127.0.0.1:${port}` });
  onTestFinished(() => ws.terminate());
  const frames: { event: string; args?: string[] }[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data))));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ event: 'auth', args: [token] }));
  await eventually(() => frames.some((f) => f.event === 'auth success'));
  return { ws, frames, closed };
}

describe('subusers: open consoles', () => {
  // attacks T-SESS-5
  it('an update tells an open console its token is revoked; a delete closes one that stays', { timeout: 20_000 }, async ({ panel, su }) => {
    const port = await listen(panel.app);
    const sub = await su.member(['control.console']);
    const connect = () => openConsole(panel, port, sub, su.server);

    const open = await connect();
    panel.clock.advance(1000);
    expect((await su.call(su.owner, 'POST', `/${sub.uuid}`, { permissions: ['file.read'] })).statusCode).toBe(200);
    await eventually(() => open.frames.some((f) => f.event === 'jwt error'));

    const lingering = await connect();
    panel.clock.advance(1000);
    expect((await su.call(su.owner, 'DELETE', `/${sub.uuid}`)).statusCode).toBe(204);
    expect(await lingering.closed).toBe(4004);
  });

  it("a password change revokes the user's consoles on every server they reach (attacks T-SESS-4)", { timeout: 20_000 }, async ({ panel, su }) => {
    const port = await listen(panel.app);
    const sub = await su.member(['control.console']);
    const own = await panel.server(sub);
    const bystander = await su.member(['control.console']);
    const consoles = [await openConsole(panel, port, sub, su.server), await openConsole(panel, port, sub, own)];
    const untouched = await openConsole(panel, port, bystander, su.server);

    panel.clock.advance(1000);
    const changed = await panel.app.inject({
      method: 'PUT',
      url: '/api/client/account/password',
      headers: await panel.sessionHeaders(sub),
      payload: { current_password: PASSWORD, password: 'a brand new one', password_confirmation: 'a brand new one' },
    });
    expect(changed.statusCode).toBe(204);
    for (const c of consoles) await eventually(() => c.frames.some((f) => f.event === 'jwt error'));
    expect(untouched.frames.some((f) => f.event === 'jwt error')).toBe(false);
    // A token fetched afterwards works again.
    panel.clock.advance(1000);
    await openConsole(panel, port, sub, su.server);
  });
});
