import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { eggExportSchema } from '../../src/contract/egg-file';
import { eggSchema } from '../../src/contract/eggs';
import { it } from '../test/fixtures';
import { eventually } from '../test/game-support';
import type { TestPanel } from '../test/harness';
import { ensureDefaultEgg } from '../services/servers';

/*
 * Importing egg files (issue 25 §3): a real PTDL_v2 file and a real Pelican one, a file over an
 * existing egg, export as PTDL_v2, hostile files refused naming the field with nothing changed,
 * and a hostile install script that only ever runs inside the install sandbox.
 */

const FIXTURES = path.join(import.meta.dirname, '..', 'test', 'eggs');
const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

type Headers = Record<string, string>;
const post = (panel: TestPanel, url: string, headers: Headers, body: string) =>
  panel.app.inject({ method: 'POST', url: `/api/application${url}`, headers: { ...headers, 'content-type': 'application/json' }, payload: body });

async function setup(panel: TestPanel) {
  await ensureDefaultEgg(panel.db);
  const admin = await panel.user({ admin: true });
  const headers = await panel.applicationHeaders(admin);
  const nest = await panel.db.selectFrom('nests').selectAll().executeTakeFirstOrThrow();
  return { admin, headers, nestId: nest.id };
}

const snapshot = async (panel: TestPanel) => ({
  eggs: await panel.db.selectFrom('eggs').selectAll().orderBy('id').execute(),
  variables: await panel.db.selectFrom('egg_variables').selectAll().orderBy('id').execute(),
});

describe('importing and exporting egg files', () => {
  it('imports a PTDL_v2 file and a Pelican file, and exports an egg as PTDL_v2', async ({ panel }) => {
    const { headers, nestId } = await setup(panel);
    for (const name of ['ptdl-v2-mumble.json', 'pelican-mumble.json']) {
      const res = await post(panel, `/nests/${String(nestId)}/eggs/import`, headers, JSON.stringify(fixture(name)));
      expect(res.statusCode, res.body).toBe(201);
      const egg = eggSchema.parse(res.json()).attributes;
      expect(egg).toMatchObject({
        name: 'Mumble Server',
        nest: nestId,
        docker_images: { Mumble: 'ghcr.io/parkervcp/yolks:voice_mumble' },
        config: { stop: '^C', startup: { done: 'Server listening on' }, files: { 'murmur.ini': { parser: 'ini' } } },
        script: { entry: 'ash' },
      });
      const variables = await panel.db.selectFrom('egg_variables').selectAll().where('egg_id', '=', egg.id).execute();
      expect(variables.map((v) => [v.env_variable, v.rules, v.user_viewable, v.user_editable])).toEqual([
        ['MAX_USERS', 'required|numeric|digits_between:1,5', 1, 0],
      ]);
    }

    const egg = await panel.db.selectFrom('eggs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    const exported = await panel.app.inject({
      method: 'GET',
      url: `/api/application/nests/${String(nestId)}/eggs/${String(egg.id)}/export`,
      headers,
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="egg-mumble-server.json"');
    const file = eggExportSchema.parse(exported.json());
    expect(file.meta.version).toBe('PTDL_v2');
    expect(JSON.parse(file.config.startup)).toEqual({ done: 'Server listening on' });
    // What Aerie exports, Aerie (and the reference) imports.
    const again = await post(panel, `/nests/${String(nestId)}/eggs/import`, headers, exported.body);
    expect(again.statusCode, again.body).toBe(201);
  });

  it("replaces an egg's definition from a file, keeping its id and the values of variables it keeps", async ({ panel }) => {
    const { admin, headers, nestId } = await setup(panel);
    const made = eggSchema.parse(
      (await post(panel, `/nests/${String(nestId)}/eggs/import`, headers, JSON.stringify(fixture('ptdl-v2-mumble.json')))).json(),
    );
    const server = await panel.server(admin, { eggId: made.attributes.id });
    const variable = await panel.db.selectFrom('egg_variables').selectAll().where('egg_id', '=', made.attributes.id).executeTakeFirstOrThrow();
    const file = fixture('pelican-mumble.json');
    file.name = 'Mumble 2';
    file.variables = [
      { ...(file.variables as Record<string, unknown>[])[0], default_value: '50' },
      { name: 'Welcome', description: '', env_variable: 'WELCOME', default_value: 'hi', user_viewable: true, user_editable: true, rules: 'string' },
    ];
    const url = `/nests/${String(nestId)}/eggs/${String(made.attributes.id)}/import`;
    const res = await post(panel, url, headers, JSON.stringify(file));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().attributes).toMatchObject({ id: made.attributes.id, uuid: made.attributes.uuid, name: 'Mumble 2' });
    const variables = await panel.db.selectFrom('egg_variables').selectAll().where('egg_id', '=', made.attributes.id).orderBy('id').execute();
    expect(variables.map((v) => [v.id === variable.id, v.env_variable, v.default_value])).toEqual([
      [true, 'MAX_USERS', '50'],
      [false, 'WELCOME', 'hi'],
    ]);
    expect((await panel.db.selectFrom('servers').select('egg_id').where('id', '=', server.id).executeTakeFirstOrThrow()).egg_id).toBe(
      made.attributes.id,
    );
  });

  // attacks: a hostile egg file is refused whole, naming the field; nothing is written.
  it('refuses malformed and hostile files with a 422 naming the field, and changes nothing', async ({ panel }) => {
    const { headers, nestId } = await setup(panel);
    const egg = await panel.db.selectFrom('eggs').selectAll().orderBy('id').executeTakeFirstOrThrow();
    const before = await snapshot(panel);
    const base = fixture('ptdl-v2-mumble.json');
    const variable = (patch: Record<string, unknown>) => ({
      ...base,
      variables: [{ ...(base.variables as Record<string, unknown>[])[0], ...patch }],
    });
    const cases: [string, string][] = [
      ['not json {', 'file'],
      ['[1, 2]', 'file'],
      ['"a string"', 'file'],
      ['null', 'file'],
      [JSON.stringify({ ...base, description: 'x'.repeat(1024 * 1024) }), 'file'],
      [JSON.stringify({ ...base, meta: { version: 'PTDL_v1' } }), 'meta.version'],
      [JSON.stringify({ ...base, name: 'x'.repeat(192) }), 'name'],
      [JSON.stringify({ ...base, startup: 'x'.repeat(10_001) }), 'startup'],
      [JSON.stringify({ ...base, author: 'not an email' }), 'author'],
      [JSON.stringify({ ...base, docker_images: { Evil: 'x; rm -rf /' } }), 'docker_images.Evil'],
      [JSON.stringify({ ...base, docker_images: ['ghcr.io/a/b'] }), 'docker_images'],
      [
        JSON.stringify({ ...base, scripts: { installation: { script: 'x', container: '../../etc', entrypoint: 'ash' } } }),
        'scripts.installation.container',
      ],
      [
        JSON.stringify({ ...base, scripts: { installation: { script: 'x', container: 'alpine', entrypoint: '/bin/sh -c id' } } }),
        'scripts.installation.entrypoint',
      ],
      [JSON.stringify({ ...base, config: { ...(base.config as object), startup: '{not json' } }), 'config.startup'],
      [JSON.stringify(variable({ env_variable: 'PATH' })), 'variables.0.env_variable'],
      [JSON.stringify(variable({ env_variable: 'LD_PRELOAD' })), 'variables.0.env_variable'],
      [JSON.stringify(variable({ env_variable: 'lower_case' })), 'variables.0.env_variable'],
      [JSON.stringify(variable({ env_variable: 'HAS SPACE' })), 'variables.0.env_variable'],
      [JSON.stringify(variable({ rules: 'required|regex:/(/' })), 'variables.0.rules'],
      [JSON.stringify(variable({ default_value: 'x'.repeat(5000) })), 'variables.0.default_value'],
      [JSON.stringify(variable({ user_viewable: 'yes' })), 'variables.0.user_viewable'],
      [
        JSON.stringify({
          ...base,
          variables: Array.from({ length: 101 }, (_, i) => ({ ...(base.variables as object[])[0], env_variable: `V_${String(i)}` })),
        }),
        'variables',
      ],
    ];
    for (const url of [`/nests/${String(nestId)}/eggs/import`, `/nests/${String(egg.nest_id)}/eggs/${String(egg.id)}/import`]) {
      for (const [body, field] of cases) {
        const res = await post(panel, url, headers, body);
        expect(res.statusCode, `${field}: ${body.slice(0, 60)}`).toBe(422);
        expect(res.json().errors[0].meta.source_field, body.slice(0, 60)).toBe(field);
      }
    }
    expect(await snapshot(panel)).toEqual(before);

    // Who may import: a key without eggs write, a client key, a user.
    const admin = await panel.user({ admin: true });
    const user = await panel.user();
    const body = JSON.stringify(base);
    expect((await post(panel, `/nests/${String(nestId)}/eggs/import`, await panel.applicationHeaders(admin, { eggs: 1 }), body)).statusCode).toBe(
      403,
    );
    expect((await post(panel, `/nests/${String(nestId)}/eggs/import`, await panel.bearerHeaders(admin), body)).statusCode).toBe(401);
    expect((await post(panel, `/nests/${String(nestId)}/eggs/import`, await panel.sessionHeaders(user), body)).statusCode).toBe(403);
    expect(await snapshot(panel)).toEqual(before);
  });

  // attacks: an imported install script is text that only ever runs in the install sandbox.
  it(
    'runs a hostile imported install script only in the sandbox: no panel data, no other volume, nothing outside its own',
    { timeout: 60_000 },
    async ({ panel }) => {
      const { admin, headers, nestId } = await setup(panel);
      const victim = await panel.server(admin);
      const victimVolume = path.join(panel.dataDir, 'volumes', victim.uuid);
      fs.mkdirSync(victimVolume, { recursive: true });
      fs.writeFileSync(path.join(victimVolume, 'secret.txt'), 'victim-secret');
      const escape = path.join(panel.dataDir, 'escaped.txt');
      const script = [
        `ls -la ${panel.dataDir} > /mnt/server/seen-data.txt 2>&1`,
        `cat ${path.join(victimVolume, 'secret.txt')} > /mnt/server/seen-victim.txt 2>&1`,
        `cat /mnt/server/../${victim.uuid}/secret.txt >> /mnt/server/seen-victim.txt 2>&1`,
        `echo pwned > ${escape} 2>/dev/null`,
        `echo pwned > ${path.join(victimVolume, 'pwned.txt')} 2>/dev/null`,
        'echo done > /mnt/server/finished.txt',
      ].join('\n');
      const file = {
        ...fixture('ptdl-v2-mumble.json'),
        scripts: { installation: { script, container: 'ghcr.io/pterodactyl/installers:alpine', entrypoint: 'sh' } },
      };
      const imported = await post(panel, `/nests/${String(nestId)}/eggs/import`, headers, JSON.stringify(file));
      expect(imported.statusCode, imported.body).toBe(201);
      const server = await panel.server(admin, { eggId: eggSchema.parse(imported.json()).attributes.id });
      const volume = path.join(panel.dataDir, 'volumes', server.uuid);
      await eventually(() => fs.existsSync(path.join(volume, 'finished.txt')), 30_000);

      expect(fs.readFileSync(path.join(volume, 'seen-data.txt'), 'utf8')).not.toMatch(/volumes|\.sqlite|secret/);
      expect(fs.readFileSync(path.join(volume, 'seen-victim.txt'), 'utf8')).not.toContain('victim-secret');
      expect(fs.existsSync(escape)).toBe(false);
      expect(fs.existsSync(path.join(victimVolume, 'pwned.txt'))).toBe(false);
      expect(fs.readdirSync(victimVolume)).toEqual(['secret.txt']);
    },
  );
});
