import { describe, expect } from 'vitest';
import type { ServerRow, UserRow } from '../db/schema';
import { test } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { nodePath } from '../test/files-support';
import { startMailCapture } from '../test/mail-capture';

/*
 * Red-team pass on the users tab (issue 13; attacks T-AZ-2, T-AZ-3, T-RACE-1): a subuser or an
 * owner sending what the SPA never would, and invites fired in parallel.
 */

async function setup(panel: TestPanel) {
  const owner = await panel.user();
  const server = await panel.server(owner);
  const call = async (as: UserRow, method: 'GET' | 'POST' | 'DELETE', path = '', payload?: unknown, on: ServerRow = server) =>
    panel.app.inject({
      method,
      url: `/api/client/servers/${on.uuid}/users${path}`,
      headers: await panel.bearerHeaders(as),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const count = async (on: ServerRow = server) =>
    Number(
      (
        await panel.db
          .selectFrom('subusers')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('server_id', '=', on.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { owner, server, call, count };
}

// With mail: since issue 22 #10 a panel without it refuses to invite an address that has no account.
const it = test.extend('su', async ({ makePanel }, { onCleanup }) => {
  const smtp = await startMailCapture();
  onCleanup(() => smtp.close());
  const panel = await makePanel({ smtpUrl: smtp.url });
  return { ...(await setup(panel)), panel };
});

describe('subusers attacks: T-RACE-1 invites', () => {
  it('50 invites of new addresses at once: 10 made, the rest 429 with Retry-After; another server is not held back', async ({ su }) => {
    const { panel } = su;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => su.call(su.owner, 'POST', '', { email: `flood${i}@example.com`, permissions: ['file.read'] })),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    const refused = answers.find((r) => r.statusCode === 429);
    expect(refused?.json().errors[0]).toMatchObject({ code: 'ThrottleRequestsException', status: '429' });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    expect(await su.count()).toBe(10);
    const made = await panel.db.selectFrom('users').select('id').where('email', 'like', 'flood%').execute();
    expect(made).toHaveLength(10);

    const other = await panel.server(su.owner);
    expect((await su.call(su.owner, 'POST', '', { email: 'elsewhere@example.com', permissions: ['file.read'] }, other)).statusCode).toBe(200);
    panel.clock.advance(15 * 60_000 + 1_000);
    expect((await su.call(su.owner, 'POST', '', { email: 'later@example.com', permissions: ['file.read'] })).statusCode).toBe(200);
  });
});

describe('subusers attacks: T-AZ-3 what is stored', () => {
  it('unknown strings, prototype names, odd shapes and huge lists: 422 or the known subset, never more', async ({ su }) => {
    const { panel } = su;
    const odd = [
      '*',
      'admin',
      'file.*',
      'FILE.READ',
      ' file.read',
      'file.read\u0000',
      '__proto__',
      'constructor',
      'toString',
      'admin.websocket.errors',
    ];
    const res = await su.call(su.owner, 'POST', '', { email: 'odd@example.com', permissions: [...odd, 'file.read', 'file.read'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes.permissions).toEqual(['websocket.connect', 'file.read']);
    const uuid = res.json().attributes.uuid as string;
    expect((await su.call(su.owner, 'GET', `/${uuid}`)).json().attributes.permissions).toEqual(['websocket.connect', 'file.read']);

    for (const permissions of [
      'file.read',
      { 0: 'file.read' },
      Array.from({ length: 10_000 }, () => 'file.read'),
      [{}],
      [1],
      null,
      ['x'.repeat(65)],
    ]) {
      expect((await su.call(su.owner, 'POST', `/${uuid}`, { permissions })).statusCode).toBe(422);
    }
    // A body that is no object, or one whose `__proto__` tries to smuggle a list.
    expect((await su.call(su.owner, 'POST', `/${uuid}`, ['file.delete'])).statusCode).toBe(422);
    const proto = await panel.app.inject({
      method: 'POST',
      url: `/api/client/servers/${su.server.uuid}/users/${uuid}`,
      headers: { ...(await panel.bearerHeaders(su.owner)), 'content-type': 'application/json' },
      payload: '{"__proto__":{"permissions":["file.delete"]}}',
    });
    // Fastify's JSON parser refuses a `__proto__` key outright, with an error document.
    expect(proto.statusCode).toBe(400);
    expect(proto.json().errors[0]).toMatchObject({ status: '400' });
    expect((await su.call(su.owner, 'GET', `/${uuid}`)).json().attributes.permissions).toEqual(['websocket.connect', 'file.read']);
  });

  it('a subuser grants nothing it lacks, cannot change itself, nor reach a subuser of another server', async ({ su }) => {
    const { panel } = su;
    const manager = await panel.user();
    await panel.subuser(su.server, manager, ['user.create', 'user.update', 'user.read', 'file.read']);
    expect((await su.call(manager, 'POST', '', { email: 'n@example.com', permissions: ['file.read', 'control.console'] })).statusCode).toBe(403);
    expect((await su.call(manager, 'POST', '', { email: 'n@example.com', permissions: ['file.read', '__proto__'] })).statusCode).toBe(403);
    const made = await su.call(manager, 'POST', '', { email: 'n@example.com', permissions: ['file.read'] });
    expect(made.statusCode).toBe(200);
    const sub2 = made.json().attributes.uuid as string;
    expect((await su.call(manager, 'POST', `/${sub2}`, { permissions: ['backup.download'] })).statusCode).toBe(403);
    expect((await su.call(manager, 'POST', `/${manager.uuid}`, { permissions: ['file.read', 'user.delete'] })).statusCode).toBe(403);
    // The owner's own address is refused; a subuser of another server is not found through this one.
    expect((await su.call(su.owner, 'POST', '', { email: su.owner.email, permissions: ['file.read'] })).statusCode).toBe(400);
    const other = await panel.server(await panel.user());
    const foreign = await panel.user();
    await panel.subuser(other, foreign, ['file.read']);
    expect((await su.call(su.owner, 'GET', `/${foreign.uuid}`)).statusCode).toBe(404);
    expect((await su.call(su.owner, 'POST', `/${foreign.uuid}`, { permissions: ['file.read', 'file.delete'] })).statusCode).toBe(404);
    expect((await su.call(su.owner, 'DELETE', `/${foreign.uuid}`)).statusCode).toBe(404);
    expect((await su.call(manager, 'GET', '', undefined, other)).statusCode).toBe(404);
  });
});

describe('subusers attacks: T-TOK-1 tokens out of place', () => {
  it('a console token is no download or upload link; a download link is no upload link', async ({ files: f }) => {
    const socket = await f.panel.app.inject({ method: 'GET', url: `/api/client/servers/${f.s1.uuid}/websocket`, headers: f.ownerHeaders });
    expect(socket.statusCode).toBe(200);
    const socketToken = socket.json().data.token as string;
    f.put('a.txt', 'secret');
    const signed = await f.panel.app.inject({
      method: 'GET',
      url: `/api/client/servers/${f.s1.uuid}/files/download?file=/a.txt`,
      headers: f.ownerHeaders,
    });
    const fileLink = nodePath(signed.json());
    const fileToken = new URL(fileLink, 'http://node').searchParams.get('token') ?? '';
    const boundary = 'tokenBoundary';
    const multipart = {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="planted.txt"\r\nContent-Type: text/plain\r\n\r\nplanted\r\n--${boundary}--\r\n`,
    };
    const refused = (res: { statusCode: number; body: string }) => {
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('secret');
    };
    refused(await f.panel.app.inject({ method: 'GET', url: `/download/file?token=${socketToken}` }));
    refused(await f.panel.app.inject({ method: 'GET', url: `/download/backup?token=${socketToken}` }));
    refused(await f.panel.app.inject({ method: 'POST', url: `/upload/file?token=${socketToken}&directory=/`, ...multipart }));
    refused(await f.panel.app.inject({ method: 'POST', url: `/upload/file?token=${fileToken}&directory=/`, ...multipart }));
    expect(f.exists('planted.txt')).toBe(false);
    // The download link, refused elsewhere, still works once where it belongs.
    expect((await f.panel.app.inject({ method: 'GET', url: fileLink })).body).toBe('secret');
  });
});
