import { describe, expect } from 'vitest';
import type { UserRow } from '../db/schema';
import { setServerStatus } from '../services/servers';
import { test } from '../test/fixtures';
import { watchSyncs } from '../test/sync-watch';

/*
 * settings/rename and settings/docker-image (reference panel): statuses, the subuser permission
 * matrix, another user's server, activity entries, the configuration the node is handed, and
 * nothing changed on a refusal.
 */

const JAVA_21 = 'ghcr.io/pterodactyl/yolks:java_21';
const JAVA_17 = 'ghcr.io/pterodactyl/yolks:java_17';

const it = test
  .extend('owner', async ({ panel }) => panel.user())
  .extend('server', async ({ panel, owner }) => panel.server(owner, { name: 'Survival', description: 'Main world' }))
  .extend('call', async ({ panel, server, owner }) => {
    return async (endpoint: 'rename' | 'docker-image', body: unknown, as: UserRow = owner, id = server.uuid) =>
      panel.app.inject({
        method: endpoint === 'rename' ? 'POST' : 'PUT',
        url: `/api/client/servers/${id}/settings/${endpoint}`,
        headers: await panel.bearerHeaders(as),
        payload: body as object,
      });
  })
  .extend(
    'row',
    async ({ panel, server }) =>
      async () =>
        panel.db.selectFrom('servers').select(['name', 'description', 'docker_image']).where('id', '=', server.id).executeTakeFirstOrThrow(),
  )
  .extend('events', async ({ panel }) => async () => {
    const rows = await panel.db.selectFrom('activity_logs').select(['event', 'properties']).orderBy('id').execute();
    return rows.map((r) => ({ event: r.event, properties: JSON.parse(r.properties) as unknown }));
  })
  .extend('pushed', async ({ panel, server }, { onCleanup }) => {
    // What the node took in after each sync the panel made.
    const watch = watchSyncs(panel.daemon, server.uuid);
    onCleanup(watch.stop);
    return () => watch.taken;
  });

describe('POST settings/rename', () => {
  it('renames and redescribes: 204, the row, the node and both activity entries', async ({ call, row, events, pushed }) => {
    const res = await call('rename', { name: '  Creative  ', description: 'Build world' });
    expect(res.statusCode).toBe(204);
    expect(await row()).toMatchObject({ name: 'Creative', description: 'Build world' });
    expect(pushed().at(-1)?.settings.meta).toEqual({ name: 'Creative', description: 'Build world' });
    expect(await events()).toEqual([
      { event: 'server:settings.rename', properties: { old: 'Survival', new: 'Creative' } },
      { event: 'server:settings.description', properties: { old: 'Main world', new: 'Build world' } },
    ]);
  });

  it('keeps an absent description, clears a null or empty one, and logs only what changed', async ({ call, row, events }) => {
    expect((await call('rename', { name: 'Survival' })).statusCode).toBe(204);
    expect(await row()).toMatchObject({ name: 'Survival', description: 'Main world' });
    expect(await events()).toEqual([]);
    expect((await call('rename', { name: 'Survival', description: null })).statusCode).toBe(204);
    expect((await row()).description).toBe('');
    expect((await call('rename', { name: 'Survival', description: '' })).statusCode).toBe(204);
    expect(await events()).toEqual([{ event: 'server:settings.description', properties: { old: 'Main world', new: '' } }]);
  });

  it('refuses a missing, blank or too long name with 422 on its field and changes nothing', async ({ call, row, events }) => {
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(192) }, { name: 42 }]) {
      const res = await call('rename', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ status: '422', source: { field: 'name' } });
    }
    expect((await call('rename', { name: 'x'.repeat(191) })).statusCode).toBe(204);
    expect((await call('rename', { name: 'Other', description: 7 })).json().errors[0]).toMatchObject({ source: { field: 'description' } });
    expect((await row()).name).toBe('x'.repeat(191));
    expect((await events()).map((e) => e.event)).toEqual(['server:settings.rename']);
  });
  it('counts characters as the reference does (code points): 191 emoji fit, 192 do not; a long description is 422, a 1 MB one 413', async ({
    call,
    row,
  }) => {
    const emoji = '\u{1F3F0}'; // two UTF-16 units, one character
    expect((await call('rename', { name: emoji.repeat(191) })).statusCode).toBe(204);
    expect((await row()).name).toBe(emoji.repeat(191));
    const over = await call('rename', { name: emoji.repeat(192) });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors[0]).toMatchObject({ source: { field: 'name' }, meta: { rule: 'too_big' } });
    const long = await call('rename', { name: 'Big', description: 'd'.repeat(2001) });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors[0]).toMatchObject({ source: { field: 'description' } });
    expect(JSON.stringify(long.json()).length).toBeLessThan(1000); // the error does not echo the value
    // A 1 MB body is past the request limit: the error document, before its fields are parsed.
    const huge = await call('rename', { name: 'Big', description: 'd'.repeat(1024 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().errors[0]).toMatchObject({ status: '413' });
    expect((await row()).name).toBe(emoji.repeat(191));
  });
});

describe('PUT settings/docker-image', () => {
  it("switches to another of the egg's images: 204, the node's next start uses it, activity", async ({ call, row, events, pushed }) => {
    expect((await row()).docker_image).toBe(JAVA_21);
    const res = await call('docker-image', { docker_image: JAVA_17 });
    expect(res.statusCode).toBe(204);
    expect((await row()).docker_image).toBe(JAVA_17);
    expect(pushed().at(-1)?.settings.container.image).toBe(JAVA_17);
    // The same image again changes nothing and logs nothing.
    expect((await call('docker-image', { docker_image: JAVA_17 })).statusCode).toBe(204);
    expect(await events()).toEqual([{ event: 'server:startup.image', properties: { old: JAVA_21, new: JAVA_17 } }]);
  });

  // attacks T-AZ-7 (docker image)
  it('refuses an image outside the egg, a malformed or missing one with 422, and nothing changes', async ({ call, row, events, pushed }) => {
    for (const docker_image of ['ghcr.io/evil/image:latest', 'bad image$', '', undefined, 'x'.repeat(192)]) {
      const res = await call('docker-image', { docker_image });
      expect(res.statusCode, String(docker_image)).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ status: '422', source: { field: 'docker_image' } });
    }
    expect((await call('docker-image', { docker_image: 'ghcr.io/evil/image:latest' })).json().errors[0].detail).toBe(
      'The selected docker image is invalid.',
    );
    expect((await row()).docker_image).toBe(JAVA_21);
    expect(pushed()).toEqual([]);
    expect(await events()).toEqual([]);
  });

  it('refuses to change a custom image an administrator set: 400, nothing changes', async ({ panel, server, call, row, events }) => {
    await panel.db.updateTable('servers').set({ docker_image: 'custom/image:1' }).where('id', '=', server.id).execute();
    const res = await call('docker-image', { docker_image: JAVA_17 });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({
      code: 'BadRequestHttpException',
      detail: "This server's Docker image has been manually set by an administrator and cannot be updated.",
    });
    expect((await row()).docker_image).toBe('custom/image:1');
    expect(await events()).toEqual([]);
  });
});

describe('settings access', () => {
  // attacks T-AZ-7 (docker image)
  it('takes settings.rename and startup.docker-image from subusers; others get 403 and change nothing', async ({
    panel,
    server,
    call,
    row,
    events,
  }) => {
    const renamer = await panel.user();
    await panel.subuser(server, renamer, ['settings.rename']);
    const imager = await panel.user();
    await panel.subuser(server, imager, ['startup.docker-image']);
    const other = await panel.user();
    await panel.subuser(server, other, ['settings.reinstall', 'startup.read', 'startup.update', 'control.console']);

    expect((await call('docker-image', { docker_image: JAVA_17 }, renamer)).statusCode).toBe(403);
    expect((await call('rename', { name: 'By imager' }, imager)).statusCode).toBe(403);
    expect((await call('rename', { name: 'By other' }, other)).statusCode).toBe(403);
    expect((await call('docker-image', { docker_image: JAVA_17 }, other)).statusCode).toBe(403);
    expect(await row()).toMatchObject({ name: 'Survival', docker_image: JAVA_21 });

    expect((await call('rename', { name: 'By renamer' }, renamer)).statusCode).toBe(204);
    expect((await call('docker-image', { docker_image: JAVA_17 }, imager)).statusCode).toBe(204);
    expect(await row()).toMatchObject({ name: 'By renamer', docker_image: JAVA_17 });
    expect((await events()).map((e) => e.event)).toEqual(['server:settings.rename', 'server:startup.image']);
  });

  it("answers 404 for another user's server and 409 while it installs; admins may rename every server", async ({
    panel,
    server,
    owner,
    call,
    row,
  }) => {
    const stranger = await panel.user();
    const own = await panel.server(stranger, { name: 'Theirs' });
    expect((await call('rename', { name: 'Mine now' }, owner, own.uuid)).statusCode).toBe(404);
    expect((await call('docker-image', { docker_image: JAVA_17 }, owner, own.uuid)).statusCode).toBe(404);
    expect((await call('rename', { name: 'Mine now' }, stranger)).statusCode).toBe(404);
    expect((await row()).name).toBe('Survival');

    await setServerStatus(panel.db, server.uuid, 'installing', panel.clock.now());
    expect((await call('rename', { name: 'Busy' })).statusCode).toBe(409);
    expect((await call('docker-image', { docker_image: JAVA_17 })).statusCode).toBe(409);
    await setServerStatus(panel.db, server.uuid, null, panel.clock.now());

    const admin = await panel.user({ admin: true });
    expect((await call('rename', { name: 'Renamed by admin' }, admin)).statusCode).toBe(204);
    expect((await row()).name).toBe('Renamed by admin');
  });
});
