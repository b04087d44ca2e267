import { describe, expect } from 'vitest';
import type { ServerRow, UserRow } from '../db/schema';
import type { TestPanel } from '../test/harness';
import { setServerStatus } from '../services/servers';
import { test } from '../test/fixtures';
import { watchSyncs } from '../test/sync-watch';

/*
 * GET startup and PUT startup/variable: the reference panel's shapes and statuses, the rules of
 * each variable, who may do what, the audit entry, and the node told of the new value.
 */

const it = test.extend('startup', async ({ panel }) => {
  const owner = await panel.user();
  const server = await panel.server(owner);
  const headers = await panel.bearerHeaders(owner);
  return startupOf(panel, server, headers, owner);
});

function startupOf(panel: TestPanel, server: ServerRow, headers: Record<string, string>, owner: UserRow) {
  const url = `/api/client/servers/${server.uuid}/startup`;
  const read = (as = headers, id = server.uuid) => panel.app.inject({ method: 'GET', url: `/api/client/servers/${id}/startup`, headers: as });
  const put = (payload: unknown, as = headers, id = server.uuid) =>
    panel.app.inject({ method: 'PUT', url: `/api/client/servers/${id}/startup/variable`, headers: as, payload: payload as object });
  const events = async () =>
    (
      await panel.db.selectFrom('activity_logs').select(['event', 'properties']).where('event', 'like', 'server:startup%').orderBy('id').execute()
    ).map((r) => ({
      event: r.event,
      properties: JSON.parse(r.properties) as unknown,
    }));
  const setFlags = (env: string, flags: { user_viewable?: number; user_editable?: number }) =>
    panel.db.updateTable('egg_variables').set(flags).where('egg_id', '=', server.egg_id).where('env_variable', '=', env).execute();
  const stored = async () =>
    await panel.db
      .selectFrom('server_variables')
      .innerJoin('egg_variables', 'egg_variables.id', 'server_variables.variable_id')
      .select(['env_variable', 'variable_value'])
      .where('server_id', '=', server.id)
      .orderBy('env_variable')
      .execute();
  return { server, owner, headers, url, read, put, events, setFlags, stored };
}

describe('GET startup', () => {
  it('lists the variables with the filled and raw startup command and the egg images', async ({ startup }) => {
    const res = await startup.read();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.object).toBe('list');
    expect(body.data.map((v: { attributes: { env_variable: string } }) => v.attributes.env_variable)).toEqual([
      'SERVER_JARFILE',
      'MINECRAFT_VERSION',
      'BUILD_NUMBER',
    ]);
    expect(body.data[0]).toMatchObject({
      object: 'egg_variable',
      attributes: {
        name: 'Server Jar File',
        default_value: 'server.jar',
        server_value: 'server.jar',
        is_editable: true,
        rules: 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/',
      },
    });
    expect(body.meta).toEqual({
      startup_command: 'java -Xms128M -XX:MaxRAMPercentage=95.0 -Dterminal.jline=false -Dterminal.ansi=true -jar server.jar',
      raw_startup_command: 'java -Xms128M -XX:MaxRAMPercentage=95.0 -Dterminal.jline=false -Dterminal.ansi=true -jar {{SERVER_JARFILE}}',
      docker_images: { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
    });
  });

  it('leaves out a variable users may not see and hides its value in the command', async ({ startup }) => {
    await startup.setFlags('SERVER_JARFILE', { user_viewable: 0 });
    const body = (await startup.read()).json();
    expect(body.data.map((v: { attributes: { env_variable: string } }) => v.attributes.env_variable)).toEqual(['MINECRAFT_VERSION', 'BUILD_NUMBER']);
    expect(body.meta.startup_command).toMatch(/-jar \[hidden\]$/);
  });
});

describe('PUT startup/variable', () => {
  it('sets the value: the variable with the new command, the activity entry, the node told, a reload keeps it', async ({ panel, startup }) => {
    const synced = watchSyncs(panel.daemon, startup.server.uuid);
    const res = await startup.put({ key: 'SERVER_JARFILE', value: '  paper.jar ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      object: 'egg_variable',
      attributes: { env_variable: 'SERVER_JARFILE', server_value: 'paper.jar', is_editable: true },
      meta: { startup_command: expect.stringMatching(/-jar paper\.jar$/), raw_startup_command: expect.stringMatching(/\{\{SERVER_JARFILE\}\}$/) },
    });
    expect(res.json().meta.docker_images).toBeUndefined();
    expect(await startup.events()).toEqual([
      { event: 'server:startup.edit', properties: { variable: 'SERVER_JARFILE', old: 'server.jar', new: 'paper.jar' } },
    ]);
    expect(synced.taken.at(-1)).toEqual(
      expect.objectContaining({ settings: expect.objectContaining({ environment: expect.objectContaining({ SERVER_JARFILE: 'paper.jar' }) }) }),
    );
    const again = (await startup.read()).json();
    expect(again.data[0].attributes.server_value).toBe('paper.jar');
    expect(again.meta.startup_command).toMatch(/-jar paper\.jar$/);
  });

  it('the same value again answers 200 and writes no activity entry', async ({ startup }) => {
    expect((await startup.put({ key: 'SERVER_JARFILE', value: 'server.jar' })).statusCode).toBe(200);
    expect(await startup.events()).toEqual([]);
  });

  it('null or an empty value clears a nullable variable', async ({ startup }) => {
    const res = await startup.put({ key: 'MINECRAFT_VERSION', value: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes.server_value).toBe('');
    expect(await startup.events()).toEqual([{ event: 'server:startup.edit', properties: { variable: 'MINECRAFT_VERSION', old: 'latest', new: '' } }]);
  });

  it("a value breaking the variable's rules is 422 on the variable's key, and nothing changes", async ({ startup }) => {
    for (const [value, detail] of [
      ['server.zip', 'Server Jar File is not in the required format.'],
      ['', 'Server Jar File is required.'],
    ] as const) {
      const res = await startup.put({ key: 'SERVER_JARFILE', value });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual([
        {
          code: 'ValidationException',
          status: '422',
          detail,
          source: { field: 'SERVER_JARFILE' },
          meta: { source_field: 'SERVER_JARFILE', rule: 'rules' },
        },
      ]);
    }
    const tooLong = await startup.put({ key: 'BUILD_NUMBER', value: 'x'.repeat(21) });
    expect(tooLong.json().errors[0]).toMatchObject({
      detail: 'Build Number may not be greater than 20 characters.',
      source: { field: 'BUILD_NUMBER' },
    });
    expect(await startup.stored()).toEqual([]);
    expect(await startup.events()).toEqual([]);
  });

  // attacks T-AZ-7 (a variable users may not edit: 4xx even for the owner)
  it('a read-only variable, one users cannot see and an unknown key are 400 and change nothing', async ({ startup }) => {
    await startup.setFlags('BUILD_NUMBER', { user_editable: 0 });
    await startup.setFlags('MINECRAFT_VERSION', { user_viewable: 0 });
    const readOnly = await startup.put({ key: 'BUILD_NUMBER', value: '100' });
    expect(readOnly.statusCode).toBe(400);
    expect(readOnly.json().errors[0]).toMatchObject({
      code: 'BadRequestHttpException',
      detail: 'The environment variable you are trying to edit is read-only.',
    });
    for (const key of ['MINECRAFT_VERSION', 'NOPE', 'SERVER_MEMORY']) {
      const res = await startup.put({ key, value: '1.21' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].detail).toBe('The environment variable you are trying to edit does not exist.');
    }
    // The list shows the locked one as not editable.
    const locked = (await startup.read())
      .json()
      .data.find((v: { attributes: { env_variable: string } }) => v.attributes.env_variable === 'BUILD_NUMBER');
    expect(locked.attributes.is_editable).toBe(false);
    expect(await startup.stored()).toEqual([]);
    expect(await startup.events()).toEqual([]);
  });

  it('a missing key or value, or a value that is not text, is 422 naming the field', async ({ startup }) => {
    expect((await startup.put({ value: 'x' })).json().errors[0]).toMatchObject({
      status: '422',
      source: { field: 'key' },
      detail: 'The key field is required.',
    });
    expect((await startup.put({ key: 'SERVER_JARFILE' })).json().errors[0]).toMatchObject({
      status: '422',
      source: { field: 'value' },
      detail: 'The value field must be present.',
    });
    expect((await startup.put({ key: 'SERVER_JARFILE', value: ['a'] })).json().errors[0]).toMatchObject({
      status: '422',
      source: { field: 'value' },
    });
    expect(await startup.stored()).toEqual([]);
  });

  it('stores and shows template and shell text in a value literally, and tells the node it as it is (attacks T-LEAK-3)', async ({
    panel,
    startup,
  }) => {
    await panel.db.updateTable('egg_variables').set({ rules: 'required|string|max:200' }).where('env_variable', '=', 'BUILD_NUMBER').execute();
    await panel.db
      .updateTable('servers')
      .set({ startup: 'java -jar {{SERVER_JARFILE}} {{BUILD_NUMBER}}' })
      .where('id', '=', startup.server.id)
      .execute();
    const synced = watchSyncs(panel.daemon, startup.server.uuid);
    const value = '{{config.token}} {{SERVER_JARFILE}} {{env.X}} ${PATH} $(id) `id` ;id | id $&';
    const res = await startup.put({ key: 'BUILD_NUMBER', value });
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes.server_value).toBe(value);
    expect(res.json().meta.startup_command).toBe(`java -jar server.jar ${value}`);
    expect(synced.taken.at(-1)).toEqual(
      expect.objectContaining({ settings: expect.objectContaining({ environment: expect.objectContaining({ BUILD_NUMBER: value }) }) }),
    );
    expect((await startup.read()).json().meta.startup_command).toBe(`java -jar server.jar ${value}`);
  });

  it('refuses a NUL in a value with 422: the server could never start with it in its environment', async ({ startup }) => {
    const res = await startup.put({ key: 'BUILD_NUMBER', value: 'a\u0000b' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ detail: 'Build Number may not contain NUL characters.', source: { field: 'BUILD_NUMBER' } });
    expect(await startup.stored()).toEqual([]);
  });

  // attacks: an egg rule's catastrophic `regex:` answers 422 fast
  it('an egg regex that backtracks for ever refuses the value instead of hanging the panel', async ({ panel, startup }) => {
    await panel.db.updateTable('egg_variables').set({ rules: 'required|regex:/^(a+)+$/' }).where('env_variable', '=', 'BUILD_NUMBER').execute();
    const started = Date.now();
    const res = await startup.put({ key: 'BUILD_NUMBER', value: `${'a'.repeat(40)}b` });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].detail).toBe('Build Number is not in the required format.');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await startup.put({ key: 'BUILD_NUMBER', value: 'aaaa' })).statusCode).toBe(200);
  });
});

describe('who may read and change startup', () => {
  // attacks T-AZ-7 (no startup.update: 403)
  it('follows startup.read and startup.update; other servers are 404', async ({ panel, startup }) => {
    const as = async (permissions: string[]) => {
      const user = await panel.user();
      await panel.subuser(startup.server, user, permissions);
      return panel.bearerHeaders(user);
    };
    const reader = await as(['startup.read']);
    const updater = await as(['startup.update']);
    const other = await as(['control.console', 'startup.docker-image']);
    const all = await as(['startup.read', 'startup.update']);
    const change = (n: number) => ({ key: 'BUILD_NUMBER', value: String(100 + n) });

    expect((await startup.read(reader)).statusCode).toBe(200);
    expect((await startup.put(change(1), reader)).statusCode).toBe(403);
    expect((await startup.read(updater)).statusCode).toBe(403);
    expect((await startup.put(change(2), updater)).statusCode).toBe(200);
    expect((await startup.read(other)).statusCode).toBe(403);
    expect((await startup.put(change(3), other)).statusCode).toBe(403);
    expect((await startup.read(all)).statusCode).toBe(200);
    expect((await startup.put(change(4), all)).statusCode).toBe(200);
    expect((await startup.put(change(5), await panel.bearerHeaders(await panel.user({ admin: true })))).statusCode).toBe(200);

    // A stranger, and the owner of another server asking through it: 404, nothing changed.
    const stranger = await panel.bearerHeaders(await panel.user());
    expect((await startup.read(stranger)).statusCode).toBe(404);
    expect((await startup.put(change(6), stranger)).statusCode).toBe(404);
    const elsewhere = await panel.server(await panel.user());
    expect((await startup.read(startup.headers, elsewhere.uuid)).statusCode).toBe(404);
    expect((await startup.put(change(7), startup.headers, elsewhere.uuid)).statusCode).toBe(404);
    expect(await startup.stored()).toEqual([{ env_variable: 'BUILD_NUMBER', variable_value: '105' }]);
    expect((await startup.events()).map((e) => e.properties)).toEqual([
      { variable: 'BUILD_NUMBER', old: 'latest', new: '102' },
      { variable: 'BUILD_NUMBER', old: '102', new: '104' },
      { variable: 'BUILD_NUMBER', old: '104', new: '105' },
    ]);
  });

  // attacks T-AZ-8 (startup)
  it('a suspended or installing server answers 409 and keeps its values', async ({ panel, startup }) => {
    for (const status of ['suspended', 'installing'] as const) {
      await setServerStatus(panel.db, startup.server.uuid, status, panel.clock.now());
      expect((await startup.read()).statusCode).toBe(409);
      expect((await startup.put({ key: 'BUILD_NUMBER', value: '7' })).statusCode).toBe(409);
    }
    expect(await startup.stored()).toEqual([]);
  });
});
