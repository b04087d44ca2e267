import { describe, expect } from 'vitest';
import { eggListSchema, eggSchema, nestListSchema, nestSchema } from '../../src/contract/eggs';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { ensureDefaultEgg } from '../services/servers';

/*
 * The application API's nests and eggs (issue 25 §2) against the reference panel's
 * NestControllerTest and EggControllerTest: shapes, includes, 404s and who may read them.
 */

type Headers = Record<string, string>;
const get = (panel: TestPanel, url: string, headers: Headers) => panel.app.inject({ method: 'GET', url: `/api/application${url}`, headers });

async function setup(panel: TestPanel) {
  await ensureDefaultEgg(panel.db);
  const admin = await panel.user({ admin: true });
  const egg = await panel.db.selectFrom('eggs').selectAll().orderBy('id').executeTakeFirstOrThrow();
  return { admin, egg, nestId: egg.nest_id ?? 0 };
}

describe('the application API: nests and eggs', () => {
  it('lists the nests paged, and shows one with its eggs and servers', async ({ panel }) => {
    const { admin, nestId, egg } = await setup(panel);
    await panel.server(admin, { eggId: egg.id });
    const headers = await panel.applicationHeaders(admin);

    const list = await get(panel, '/nests', headers);
    expect(list.statusCode, list.body).toBe(200);
    const page = nestListSchema.parse(list.json());
    expect(page.meta.pagination).toMatchObject({ total: 1, count: 1, per_page: 50, current_page: 1 });
    expect(page.data[0]?.attributes).toEqual({
      id: nestId,
      uuid: expect.any(String),
      author: 'support@aerie.local',
      name: 'Aerie',
      description: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const view = await get(panel, `/nests/${String(nestId)}?include=eggs,servers`, headers);
    expect(view.statusCode).toBe(200);
    const nest = nestSchema.parse(view.json());
    const eggs = nest.attributes.relationships?.eggs;
    expect(eggs && 'data' in eggs ? eggs.data.map((e) => e.attributes.id) : []).toContain(egg.id);
    const servers = nest.attributes.relationships?.servers;
    expect(servers && 'data' in servers ? servers.data : []).toHaveLength(1);

    for (const missing of ['/nests/nil', '/nests/999']) {
      const res = await get(panel, missing, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0]).toMatchObject({ code: 'NotFoundHttpException', detail: 'The requested resource does not exist on this server.' });
    }
  });

  it("shows a nest's eggs and one egg in the reference's shape, with its includes", async ({ panel }) => {
    const { admin, nestId, egg } = await setup(panel);
    const headers = await panel.applicationHeaders(admin);

    const list = await get(panel, `/nests/${String(nestId)}/eggs`, headers);
    expect(list.statusCode, list.body).toBe(200);
    const eggs = eggListSchema.parse(list.json());
    expect(eggs.data.map((e) => e.attributes.name)).toEqual(['Demo game', 'Paper']);

    const view = await get(panel, `/nests/${String(nestId)}/eggs/${String(egg.id)}?include=nest,servers,config,script,variables`, headers);
    expect(view.statusCode, view.body).toBe(200);
    const body = eggSchema.parse(view.json());
    expect(Object.keys(view.json().attributes)).toEqual([
      'id',
      'uuid',
      'name',
      'nest',
      'author',
      'description',
      'docker_image',
      'docker_images',
      'config',
      'startup',
      'script',
      'created_at',
      'updated_at',
      'relationships',
    ]);
    expect(body.attributes).toMatchObject({
      nest: nestId,
      docker_image: 'ghcr.io/parkervcp/yolks:nodejs_22',
      config: { stop: 'stop', startup: { done: ['For help, type "help"'] }, file_denylist: [], extends: null },
      script: { privileged: true, entry: 'ash', extends: null },
    });
    const relationships = view.json().attributes.relationships;
    expect(relationships.nest).toMatchObject({ object: 'nest', attributes: { id: nestId, name: 'Aerie' } });
    expect(relationships.servers).toEqual({ object: 'list', data: [] });
    expect(relationships.config).toEqual({ object: 'null_resource', attributes: null });
    expect(relationships.script).toEqual({ object: 'null_resource', attributes: null });
    expect(relationships.variables.data[0]).toEqual({
      object: 'egg_variable',
      attributes: {
        id: expect.any(Number),
        egg_id: egg.id,
        name: 'Message of the day',
        description: 'What the server says to players as they join.',
        env_variable: 'MOTD',
        default_value: 'An Aerie demo server',
        user_viewable: true,
        user_editable: true,
        rules: 'required|string|max:60',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });

    // An egg through another nest, or none, is missing.
    for (const missing of [`/nests/999/eggs/${String(egg.id)}`, `/nests/${String(nestId)}/eggs/nil`, `/nests/999/eggs`]) {
      expect((await get(panel, missing, headers)).statusCode, missing).toBe(404);
    }
  });

  it('lets only keys with the resource read, and withholds includes the key may not read', async ({ panel }) => {
    const { admin, nestId, egg } = await setup(panel);
    const eggUrl = `/nests/${String(nestId)}/eggs/${String(egg.id)}`;

    const noEggs = await panel.applicationHeaders(admin, { nests: 1 });
    expect((await get(panel, '/nests', noEggs)).statusCode).toBe(200);
    expect((await get(panel, eggUrl, noEggs)).statusCode).toBe(403);
    expect((await get(panel, `/nests/${String(nestId)}/eggs/nil`, noEggs)).statusCode).toBe(403);
    const withheld = await get(panel, `/nests/${String(nestId)}?include=eggs`, noEggs);
    expect(withheld.json().attributes.relationships.eggs).toEqual({ object: 'null_resource', attributes: null });

    const onlyEggs = await panel.applicationHeaders(admin, { eggs: 1 });
    expect((await get(panel, '/nests', onlyEggs)).statusCode).toBe(403);
    const egg200 = await get(panel, `${eggUrl}?include=nest,servers`, onlyEggs);
    expect(egg200.statusCode).toBe(200);
    expect(egg200.json().attributes.relationships).toEqual({
      nest: { object: 'null_resource', attributes: null },
      servers: { object: 'null_resource', attributes: null },
    });

    expect((await get(panel, eggUrl, await panel.bearerHeaders(admin))).statusCode).toBe(401);
    const user = await panel.user();
    expect((await get(panel, eggUrl, await panel.sessionHeaders(user))).statusCode).toBe(403);
    expect((await get(panel, eggUrl, await panel.applicationHeaders(user))).statusCode).toBe(403);
    expect((await get(panel, eggUrl, await panel.sessionHeaders(admin))).statusCode).toBe(200);
  });
});
