import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { Header } from 'tar';
import { describe, expect } from 'vitest';
import { servers } from '../db/repos';
import { findEgg, setServerStatus } from '../services/servers';
import { settled } from '../test/backups-support';
import type { FileFixture } from '../test/files-support';
import { it } from '../test/fixtures';
import { eventually } from '../test/game-support';

/*
 * Red-team pass on the server-scoped features (issues 9 to 11) where they meet: a reinstall and a
 * backup restore each claim the server for their whole run, so two of them asked for at once must
 * leave exactly one running, the server's status naming it until it ends, and nothing of the
 * other done. S1 of the file fixture, its real local node.
 */

/** An install script that takes a second and leaves a mark per run. */
const SLOW_INSTALL = 'sleep 1; echo ran >> /mnt/server/installs.txt';

function api(f: FileFixture) {
  const { panel } = f;
  const post = (url: string, payload?: object) =>
    panel.app.inject({ method: 'POST', url: `/api/client/servers/${f.s1.uuid}/${url}`, headers: f.ownerHeaders, ...(payload ? { payload } : {}) });
  return {
    reinstall: () => post('settings/reinstall'),
    restore: (uuid: string) => post(`backups/${uuid}/restore`, { truncate: false }),
    status: async () => (await servers.findById(panel.db, f.s1.id))?.status ?? null,
    slowInstall: () => panel.db.updateTable('eggs').set({ script_install: SLOW_INSTALL }).where('id', '=', f.s1.egg_id).execute(),
    installs: () => (f.exists('installs.txt') ? f.read('installs.txt').split('\n').filter(Boolean).length : 0),
    async backUp() {
      const res = await post('backups', { name: 'Before' });
      expect(res.statusCode, res.body).toBe(200);
      return settled(panel, (res.json() as { attributes: { uuid: string } }).attributes.uuid);
    },
    events: async () => (await panel.db.selectFrom('activity_logs').select('event').orderBy('id').execute()).map((e) => e.event),
  };
}

describe('a reinstall and a restore claim the server alone', () => {
  it(
    'two reinstalls at once: one runs, the other is 409, and the server stays installing until it ends',
    { timeout: 30_000 },
    async ({ files: f }) => {
      const a = api(f);
      await a.slowInstall();
      const codes = (await Promise.all([a.reinstall(), a.reinstall(), a.reinstall()])).map((r) => r.statusCode).sort();
      expect(codes).toEqual([204, 409, 409]);
      expect(await a.status()).toBe('installing');
      // The status is the panel's guard for every other route while the script runs.
      expect((await f.call('GET', 'list')).statusCode).toBe(409);
      await eventually(async () => (await a.status()) === null, 10_000);
      expect(a.installs()).toBe(1);
      expect((await a.events()).filter((e) => e === 'server:reinstall')).toHaveLength(1);
    },
  );

  it(
    'a reinstall and a restore at once, either first: one runs with its own status, the other changes nothing',
    { timeout: 60_000 },
    async ({ files: f }) => {
      const a = api(f);
      await a.slowInstall();
      // Incompressible, so the restore takes a moment.
      f.put('big.bin', randomBytes(16 * 1024 * 1024));
      const backup = await a.backUp();
      for (const restoreFirst of [true, false]) {
        const before = a.installs();
        const [restore, reinstall] = restoreFirst
          ? await Promise.all([a.restore(backup.uuid), a.reinstall()])
          : await Promise.all([a.reinstall(), a.restore(backup.uuid)]).then(([r, b]) => [b, r] as const);
        const accepted = [restore, reinstall].filter((r) => r.statusCode === 204);
        expect(accepted, `${restore.body} ${reinstall.body}`).toHaveLength(1);
        expect([400, 409]).toContain((restore.statusCode === 204 ? reinstall : restore).statusCode);
        expect(await a.status()).toBe(restore.statusCode === 204 ? 'restoring_backup' : 'installing');
        await eventually(async () => (await a.status()) === null, 20_000);
        expect(a.installs()).toBe(reinstall.statusCode === 204 ? before + 1 : before);
      }
    },
  );

  it(
    'a restore asked for while a reinstall runs, and the reverse, is 409 and leaves the running one its status',
    { timeout: 60_000 },
    async ({ files: f }) => {
      const a = api(f);
      const backup = await a.backUp();
      await a.slowInstall();
      expect((await a.reinstall()).statusCode).toBe(204);
      expect((await a.restore(backup.uuid)).statusCode).toBe(409);
      expect(await a.status()).toBe('installing');
      await eventually(async () => (await a.status()) === null, 10_000);

      f.put('big.bin', randomBytes(16 * 1024 * 1024));
      const big = await a.backUp();
      expect((await a.restore(big.uuid)).statusCode).toBe(204);
      expect((await a.reinstall()).statusCode).toBe(409);
      expect(await a.status()).toBe('restoring_backup');
      // Writes wait for the restore too (T-AZ-8).
      expect((await f.call('POST', 'write', { query: { file: 'during.txt' }, raw: 'x' })).statusCode).toBe(409);
      expect(f.exists('during.txt')).toBe(false);
      await eventually(async () => (await a.status()) === null, 20_000);
      expect(a.installs()).toBe(1);
    },
  );
});

describe('T-AZ-8: a suspended server', () => {
  it('answers 409 on every route of its settings, startup, network, databases, backups, activity, files and console, changing nothing', async ({
    files: f,
  }) => {
    const { panel } = f;
    const a = api(f);
    const backup = await a.backUp();
    const [allocation] = await panel.db.selectFrom('allocations').select('id').where('server_id', '=', f.s1.id).execute();
    const before = {
      server: await servers.findById(panel.db, f.s1.id),
      allocations: await panel.db.selectFrom('allocations').selectAll().orderBy('id').execute(),
      variables: await panel.db.selectFrom('server_variables').selectAll().execute(),
      backups: await panel.db.selectFrom('backups').selectAll().execute(),
      events: await a.events(),
      volume: f.snapshot(),
    };
    await setServerStatus(panel.db, f.s1.uuid, 'suspended', panel.clock.now());
    const routes: [string, string, object?][] = [
      ['POST', 'settings/rename', { name: 'Renamed' }],
      ['PUT', 'settings/docker-image', { docker_image: 'ghcr.io/pterodactyl/yolks:java_17' }],
      ['POST', 'settings/reinstall'],
      ['GET', 'startup'],
      ['PUT', 'startup/variable', { key: 'SERVER_JARFILE', value: 'paper.jar' }],
      ['GET', 'network/allocations'],
      ['POST', 'network/allocations'],
      ['POST', `network/allocations/${allocation?.id}`, { notes: 'n' }],
      ['POST', `network/allocations/${allocation?.id}/primary`],
      ['DELETE', `network/allocations/${allocation?.id}`],
      ['GET', 'databases'],
      ['POST', 'databases', { database: 'x', remote: '%' }],
      ['POST', 'databases/1/rotate-password'],
      ['DELETE', 'databases/1'],
      ['GET', 'backups'],
      ['POST', 'backups', { name: 'during' }],
      ['GET', `backups/${backup.uuid}`],
      ['GET', `backups/${backup.uuid}/download`],
      ['POST', `backups/${backup.uuid}/lock`],
      ['POST', `backups/${backup.uuid}/restore`, { truncate: true }],
      ['DELETE', `backups/${backup.uuid}`],
      ['GET', 'activity'],
      ['GET', 'files/list'],
      ['GET', 'files/contents?file=a.txt'],
      ['POST', 'files/create-folder', { root: '/', name: 'x' }],
      ['GET', 'websocket'],
      ['POST', 'power', { signal: 'start' }],
      ['POST', 'command', { command: 'say hi' }],
    ];
    for (const [method, url, payload] of routes) {
      const res = await panel.app.inject({
        method: method as 'GET',
        url: `/api/client/servers/${f.s1.uuid}/${url}`,
        headers: f.ownerHeaders,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(409);
      expect(res.json().errors[0].code).toBe('ServerStateConflictException');
    }
    expect({
      server: await servers.findById(panel.db, f.s1.id),
      allocations: await panel.db.selectFrom('allocations').selectAll().orderBy('id').execute(),
      variables: await panel.db.selectFrom('server_variables').selectAll().execute(),
      backups: await panel.db.selectFrom('backups').selectAll().execute(),
      events: await a.events(),
      volume: f.snapshot(),
    }).toEqual({ ...before, server: { ...before.server, status: 'suspended', updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) } });
  });
});

describe('T-LEAK-4: errors say nothing of the inside', () => {
  it('malformed JSON, wrong types and a node that fails get an error document without stack, path or SQL', async ({ files: f }) => {
    const { panel } = f;
    const inside = /\bat .+:\d+:\d+|\/work\/|\/tmp\/|node_modules|SELECT |INSERT |UPDATE |sqlite|SqliteError|TypeError|ReferenceError/i;
    const send = (method: string, url: string, payload: string, type = 'application/json') =>
      panel.app.inject({
        method: method as 'POST',
        url: `/api/client/servers/${f.s1.uuid}/${url}`,
        headers: { ...f.ownerHeaders, 'content-type': type },
        payload,
      });
    const endpoints: [string, string][] = [
      ['POST', 'settings/rename'],
      ['PUT', 'settings/docker-image'],
      ['PUT', 'startup/variable'],
      ['POST', 'network/allocations/1'],
      ['POST', 'databases'],
      ['POST', 'backups'],
      ['POST', 'files/delete'],
    ];
    const bodies = [
      '{"a":',
      '[]',
      'null',
      '"text"',
      '{"name":{"$ne":""},"key":["SERVER_JARFILE"],"value":{},"notes":[1],"database":1e400,"remote":null,"files":"a","docker_image":true}',
      '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
    ];
    for (const [method, url] of endpoints) {
      for (const body of bodies) {
        const res = await send(method, url, body);
        // Every field of a backup is optional: an empty or null body makes one, as in the reference.
        if (url === 'backups' && res.statusCode === 200) continue;
        expect(res.statusCode, `${method} ${url} ${body}: ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${method} ${url} ${body}: ${res.body}`).toBeLessThan(500);
        expect(res.json().errors[0]).toMatchObject({ status: String(res.statusCode) });
        expect(res.body).not.toMatch(inside);
      }
      const xml = await send(method, url, '<x/>', 'application/xml');
      expect(xml.statusCode).toBe(415);
      expect(xml.body).not.toMatch(inside);
    }
    // The node fails under a request: the volume is gone from under it (once the backups made above are done).
    for (const { uuid } of await panel.db.selectFrom('backups').select('uuid').execute()) await settled(panel, uuid);
    fs.rmSync(f.v1, { recursive: true, force: true });
    for (const res of [await f.call('GET', 'list'), await f.call('POST', 'write', { query: { file: 'a.txt' }, raw: 'x' })]) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.json().errors[0].detail).toBeTruthy();
      expect(res.body).not.toMatch(inside);
      expect(res.body).not.toContain(f.s1.uuid + '/');
    }
    expect({} as Record<string, unknown>).not.toHaveProperty('admin'); // no prototype was polluted
  });
});

describe('T-UP-1: uploads of active content', () => {
  it('stores them as plain files in the volume and only ever serves them as inert downloads or text', async ({ files: f }) => {
    const boundary = 'aerieUp';
    const payloads: Record<string, string> = {
      'x.php': '<?php system($_GET["c"]); ?>',
      'x.phtml': '<?php phpinfo(); ?>',
      'x.html': '<script>alert(1)</script>',
      'X.HTML': '<img src=x onerror=alert(1)>',
      'x.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'poly.png.php': '\x89PNG\r\n\x1a\n<?php echo 1; ?>',
    };
    for (const [name, content] of Object.entries(payloads)) {
      const raw = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: image/svg+xml;charset=utf-8\r\n\r\n${content}\r\n--${boundary}--\r\n`;
      const up = await f.call('POST', 'upload', { raw, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      expect(up.statusCode, name).toBe(204);
      expect(f.read(name)).toBe(content);
      const down = await f.call('GET', 'download', { query: { file: name } });
      expect(down.statusCode).toBe(200);
      expect(down.headers['content-type']).toBe('application/octet-stream');
      expect(String(down.headers['content-disposition'])).toMatch(/^attachment;/);
      expect(down.headers['x-content-type-options']).toBe('nosniff');
      const shown = await f.call('GET', 'contents', { query: { file: name } });
      expect(shown.statusCode).toBe(200);
      expect(String(shown.headers['content-type'])).toMatch(/^text\/plain/);
      expect(shown.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('T-LEAK-1: the IP an action is logged with', () => {
  it('comes from the connection: a spoofed X-Forwarded-For is not recorded (no trusted proxy configured)', async ({ files: f }) => {
    const { panel } = f;
    const res = await panel.app.inject({
      method: 'POST',
      url: `/api/client/servers/${f.s1.uuid}/settings/rename`,
      headers: { ...f.ownerHeaders, 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' },
      remoteAddress: '198.51.100.7',
      payload: { name: 'Spoofed' },
    });
    expect(res.statusCode).toBe(204);
    const rows = await panel.db.selectFrom('activity_logs').select(['event', 'ip']).where('event', '=', 'server:settings.rename').execute();
    expect(rows).toEqual([{ event: 'server:settings.rename', ip: '198.51.100.7' }]);
  });
});

describe('T-DOS-2: an activity flood', () => {
  it('32,768 files from one decompress are one entry, paged like every other, never stored twice', { timeout: 120_000 }, async ({ files: f }) => {
    const { panel } = f;
    // Past the 32,766 pending rows that made Wings re-send its activity for ever.
    const count = 32_768;
    const headers = Array.from({ length: count }, (_, i) => {
      const header = new Header({ path: `many/e${i}.txt`, type: 'File', size: 0, mode: 0o644, mtime: new Date('2026-01-01T00:00:00Z') });
      header.encode();
      return header.block as Buffer;
    });
    f.put('many.tar.gz', zlib.gzipSync(Buffer.concat([...headers, Buffer.alloc(1024)])));
    const res = await f.call('POST', 'decompress', { body: { root: '/', file: 'many.tar.gz' } });
    expect(res.statusCode, res.body).toBe(204);
    expect(fs.readdirSync(`${f.v1}/many`)).toHaveLength(count);
    // Deleting the folder is one more action: one more entry.
    expect((await f.call('POST', 'delete', { body: { root: '/', files: ['many'] } })).statusCode).toBe(204);
    const rows = await panel.db.selectFrom('activity_logs').select(['event', 'properties']).orderBy('id').execute();
    expect(rows.map((r) => r.event)).toEqual(['server:file.decompress', 'server:file.delete']);
    expect(Math.max(...rows.map((r) => Buffer.byteLength(r.properties)))).toBeLessThanOrEqual(8 * 1024);
    const page = await panel.app.inject({ method: 'GET', url: `/api/client/servers/${f.s1.uuid}/activity?per_page=1`, headers: f.ownerHeaders });
    expect(page.statusCode).toBe(200);
    expect(page.json().meta.pagination).toMatchObject({ total: 2, per_page: 1, total_pages: 2 });
  });
});

describe('T-AZ-2: startup variables of another egg', () => {
  it("a variable of another server's egg is unknown here: 400, nothing stored, the other server untouched", async ({ files: f }) => {
    const { panel } = f;
    const demo = await findEgg(panel.db, 'Demo game');
    if (!demo) throw new Error('no demo egg');
    await panel.db
      .insertInto('egg_variables')
      .values({
        egg_id: demo.id,
        name: 'Other',
        description: '',
        env_variable: 'OTHER_ONLY',
        default_value: 'a',
        user_viewable: 1,
        user_editable: 1,
        rules: 'nullable|string',
      })
      .execute();
    const other = await panel.server(f.otherOwner, { eggId: demo.id });
    const res = await panel.app.inject({
      method: 'PUT',
      url: `/api/client/servers/${f.s1.uuid}/startup/variable`,
      headers: f.ownerHeaders,
      payload: { key: 'OTHER_ONLY', value: 'b' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].detail).toBe('The environment variable you are trying to edit does not exist.');
    expect(await panel.db.selectFrom('server_variables').selectAll().where('server_id', 'in', [f.s1.id, other.id]).execute()).toEqual([]);
    // Nor through the other server's URL.
    const through = await panel.app.inject({
      method: 'PUT',
      url: `/api/client/servers/${other.uuid}/startup/variable`,
      headers: f.ownerHeaders,
      payload: { key: 'OTHER_ONLY', value: 'b' },
    });
    expect(through.statusCode).toBe(404);
  });
});

describe('T-RACE-1: startup variables set at once', () => {
  it('20 values of one variable at once: the stored one is the one the node was last handed', async ({ files: f }) => {
    const { panel } = f;
    const values = Array.from({ length: 20 }, (_, i) => `v${i}.jar`);
    const results = await Promise.all(
      values.map((value) =>
        panel.app.inject({
          method: 'PUT',
          url: `/api/client/servers/${f.s1.uuid}/startup/variable`,
          headers: f.ownerHeaders,
          payload: { key: 'SERVER_JARFILE', value },
        }),
      ),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const stored = await panel.db.selectFrom('server_variables').select('variable_value').where('server_id', '=', f.s1.id).executeTakeFirstOrThrow();
    // However the syncs interleaved, the node holds what was stored last.
    const held = await panel.daemon.configuration(f.s1.uuid);
    expect(held.settings.environment.SERVER_JARFILE).toBe(stored.variable_value);
  });
});
