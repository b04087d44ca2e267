import { describe, expect } from 'vitest';
import { eggSchema } from '../../src/contract/eggs';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { ensureDefaultEgg } from '../services/servers';

/*
 * Aerie's nest and egg writes under /api/application (issue 25 §3): create, change, variables,
 * install script, delete refused while in use; who may write, and nothing changed when refused.
 */

type Headers = Record<string, string>;
const call = (panel: TestPanel, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
  panel.app.inject({ method, url: `/api/application${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

const NEW_EGG = { name: 'Tiny', startup: './run {{PORT_X}}', docker_images: { Alpine: 'ghcr.io/owner/alpine:3.20' } };

async function setup(panel: TestPanel) {
  await ensureDefaultEgg(panel.db);
  const admin = await panel.user({ admin: true });
  const headers = await panel.applicationHeaders(admin);
  const nest = await call(panel, 'POST', '/nests', headers, { name: 'Games', description: 'Some games' });
  expect(nest.statusCode, nest.body).toBe(201);
  const nestId: number = nest.json().attributes.id;
  return { admin, headers, nestId };
}

const snapshot = async (panel: TestPanel) => ({
  eggs: await panel.db.selectFrom('eggs').selectAll().orderBy('id').execute(),
  variables: await panel.db.selectFrom('egg_variables').selectAll().orderBy('id').execute(),
  nests: await panel.db.selectFrom('nests').selectAll().orderBy('id').execute(),
});

describe('the application API: egg and nest writes', () => {
  it('creates an egg in a nest, changes it, its variables and its install script', async ({ panel }) => {
    const { headers, nestId } = await setup(panel);
    const made = await call(panel, 'POST', `/nests/${String(nestId)}/eggs`, headers, NEW_EGG);
    expect(made.statusCode, made.body).toBe(201);
    const egg = eggSchema.parse(made.json()).attributes;
    expect(egg).toMatchObject({ nest: nestId, name: 'Tiny', docker_image: 'ghcr.io/owner/alpine:3.20', config: { stop: 'stop' } });
    const eggUrl = `/nests/${String(nestId)}/eggs/${String(egg.id)}`;

    const changed = await call(panel, 'PATCH', eggUrl, headers, {
      description: 'Small',
      config_stop: '^C',
      config_startup: '{"done": "Ready"}',
      features: ['eula'],
      file_denylist: ['secret.txt'],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().attributes).toMatchObject({
      name: 'Tiny',
      description: 'Small',
      config: { stop: '^C', startup: { done: 'Ready' }, file_denylist: ['secret.txt'] },
    });

    const variable = await call(panel, 'POST', `${eggUrl}/variables`, headers, {
      name: 'Port X',
      env_variable: 'PORT_X',
      default_value: '7',
      user_viewable: true,
      user_editable: true,
      rules: 'required|integer|between:1,9',
    });
    expect(variable.statusCode, variable.body).toBe(201);
    const variableId: number = variable.json().attributes.id;
    const again = await call(panel, 'POST', `${eggUrl}/variables`, headers, { name: 'Again', env_variable: 'PORT_X' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors[0].meta.source_field).toBe('env_variable');
    const edited = await call(panel, 'PATCH', `${eggUrl}/variables/${String(variableId)}`, headers, { default_value: '8' });
    expect(edited.json().attributes).toMatchObject({ env_variable: 'PORT_X', default_value: '8', user_editable: true });

    const script = await call(panel, 'PUT', `${eggUrl}/script`, headers, {
      script_install: '#!/bin/ash\necho hi',
      script_container: 'ghcr.io/pterodactyl/installers:alpine',
      script_entry: 'ash',
    });
    expect(script.statusCode, script.body).toBe(200);
    expect(script.json().attributes.script).toMatchObject({ install: '#!/bin/ash\necho hi', entry: 'ash' });

    expect((await call(panel, 'DELETE', `${eggUrl}/variables/${String(variableId)}`, headers)).statusCode).toBe(204);
    expect((await call(panel, 'DELETE', `${eggUrl}/variables/${String(variableId)}`, headers)).statusCode).toBe(404);

    // A nest holding an egg is kept, and says how many; an egg no server uses goes.
    const nestDelete = await call(panel, 'DELETE', `/nests/${String(nestId)}`, headers);
    expect(nestDelete.statusCode).toBe(400);
    expect(nestDelete.json().errors[0].detail).toBe('Cannot delete a nest that has eggs in it (1 egg).');
    expect((await call(panel, 'DELETE', eggUrl, headers)).statusCode).toBe(204);
    expect((await call(panel, 'DELETE', `/nests/${String(nestId)}`, headers)).statusCode).toBe(204);

    const events = await panel.db.selectFrom('activity_logs').select('event').orderBy('id').execute();
    expect(events.map((e) => e.event)).toEqual([
      'admin:nest.create',
      'admin:egg.create',
      'admin:egg.update',
      'admin:egg.update',
      'admin:egg.update',
      'admin:egg.update',
      'admin:egg.update',
      'admin:egg.delete',
      'admin:nest.delete',
    ]);
  });

  it('refuses to delete an egg servers use, saying how many', async ({ panel }) => {
    const { admin, headers } = await setup(panel);
    const egg = await panel.db.selectFrom('eggs').selectAll().orderBy('id').executeTakeFirstOrThrow();
    await panel.server(admin, { eggId: egg.id });
    await panel.server(admin, { eggId: egg.id });
    const res = await call(panel, 'DELETE', `/nests/${String(egg.nest_id)}/eggs/${String(egg.id)}`, headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ code: 'DisplayException', detail: 'Cannot delete an egg that servers use (2 servers).' });
    expect(await panel.db.selectFrom('eggs').select('id').where('id', '=', egg.id).executeTakeFirst()).toBeDefined();
  });

  it('validates egg and variable fields, naming the field, and changes nothing', async ({ panel }) => {
    const { headers, nestId } = await setup(panel);
    const egg = eggSchema.parse((await call(panel, 'POST', `/nests/${String(nestId)}/eggs`, headers, NEW_EGG)).json()).attributes;
    const eggUrl = `/nests/${String(nestId)}/eggs/${String(egg.id)}`;
    const before = await snapshot(panel);
    const cases: [string, 'POST' | 'PATCH' | 'PUT', unknown, string][] = [
      [eggUrl, 'PATCH', { name: '' }, 'name'],
      [eggUrl, 'PATCH', { docker_images: { A: 'not an image!' } }, 'docker_images.A'],
      [eggUrl, 'PATCH', { docker_images: {} }, 'docker_images'],
      [eggUrl, 'PATCH', { config_startup: '{nope' }, 'config_startup'],
      [eggUrl, 'PATCH', { startup: 'x'.repeat(10_001) }, 'startup'],
      [`${eggUrl}/script`, 'PUT', { script_install: 'x', script_container: 'bad image', script_entry: 'ash' }, 'script_container'],
      [`${eggUrl}/script`, 'PUT', { script_install: 'x', script_container: 'alpine', script_entry: 'sh; rm -rf /' }, 'script_entry'],
      ...['PATH', 'LD_PRELOAD', 'lower', 'HAS SPACE', 'P_SERVER_UUID', 'SERVER_MEMORY'].map((env): [string, 'POST', unknown, string] => [
        `${eggUrl}/variables`,
        'POST',
        { name: 'V', env_variable: env },
        'env_variable',
      ]),
      [`${eggUrl}/variables`, 'POST', { name: 'V', env_variable: 'OK_NAME', rules: 'required|regex:/(unclosed/' }, 'rules'],
      [`${eggUrl}/variables`, 'POST', { name: 'V', env_variable: 'OK_NAME', rules: 'required|<script>' }, 'rules'],
      ['/nests', 'POST', { name: 'x'.repeat(192) }, 'name'],
    ];
    for (const [url, method, payload, field] of cases) {
      const res = await call(panel, method, url, headers, payload);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload).slice(0, 80)}`).toBe(422);
      expect(res.json().errors[0].meta.source_field).toBe(field);
    }
    expect(await snapshot(panel)).toEqual(before);
  });

  it('lets only admins with eggs write reach the writes, and changes nothing otherwise', async ({ panel }) => {
    const { admin, nestId } = await setup(panel);
    const egg = await panel.db.selectFrom('eggs').selectAll().orderBy('id').executeTakeFirstOrThrow();
    const eggUrl = `/nests/${String(egg.nest_id)}/eggs/${String(egg.id)}`;
    const user = await panel.user();
    const before = await snapshot(panel);
    const callers: [Headers, number][] = [
      [await panel.applicationHeaders(admin, { eggs: 1 }), 403],
      [await panel.applicationHeaders(admin, { nests: 3, servers: 3 }), 403],
      [await panel.bearerHeaders(admin), 401],
      [await panel.sessionHeaders(user), 403],
      [await panel.applicationHeaders(user), 403],
    ];
    for (const [headers, status] of callers) {
      for (const [method, url, payload] of [
        ['PATCH', eggUrl, { name: 'Stolen' }],
        ['DELETE', eggUrl, undefined],
        ['POST', `${eggUrl}/variables`, { name: 'V', env_variable: 'V' }],
        ['PUT', `${eggUrl}/script`, { script_install: 'x', script_container: 'alpine', script_entry: 'sh' }],
        ['POST', `/nests/${String(nestId)}/eggs`, NEW_EGG],
        ['POST', '/nests', { name: 'N' }],
        ['DELETE', `/nests/${String(nestId)}`, undefined],
      ] as const) {
        expect((await call(panel, method, url, headers, payload)).statusCode, `${method} ${url}`).toBe(status);
      }
    }
    expect(await snapshot(panel)).toEqual(before);
    // A root admin's own session writes (the admin area).
    expect((await call(panel, 'PATCH', eggUrl, await panel.sessionHeaders(admin), { name: 'Renamed' })).statusCode).toBe(200);
  });
});
