import fs from 'node:fs';
import path from 'node:path';
import type mysql from 'mysql2/promise';
import { describe, expect } from 'vitest';
import type { ServerRow } from '../db/schema';
import { randomAlnum } from '../lib/crypto';
import { loadSecretBox } from '../lib/secret-box';
import { saveHost, withHost } from '../services/database-hosts';
import { findEgg } from '../services/servers';
import { settled } from '../test/backups-support';
import { test } from '../test/fixtures';
import { eventually } from '../test/game-support';
import { useTestMariadb } from '../test/mariadb';
import { runCli } from './commands';

// Issue 22 #13: `server:delete` stops the server and removes its volume, its backups and its databases on their host.
const mariadb = useTestMariadb();

/** What the host holds of a server: its databases (`s<id>_…`) and users (`u<id>_…`). */
async function onHost(serverId: number): Promise<{ databases: string[]; users: string[] }> {
  return withHost(mariadb(), async (conn) => {
    const [dbs] = await conn.query<mysql.RowDataPacket[]>('SELECT SCHEMA_NAME AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?', [
      `s${serverId}\\_%`,
    ]);
    const [users] = await conn.query<mysql.RowDataPacket[]>('SELECT User AS n FROM mysql.user WHERE User LIKE ?', [`u${serverId}\\_%`]);
    return { databases: dbs.map((r) => String(r.n)), users: users.map((r) => String(r.n)) };
  });
}

const it = test.extend('made', async ({ panel }, { onCleanup }) => {
  const servers: ServerRow[] = [];
  // Whatever a failing test left on the shared instance goes with it.
  onCleanup(async () => {
    for (const server of servers) {
      const { databases, users } = await onHost(server.id);
      await withHost(mariadb(), async (conn) => {
        for (const name of databases) await conn.query('DROP DATABASE ??', [name]);
        for (const user of users) await conn.query('DROP USER ?@?', [user, '%']);
      });
    }
  });
  const box = loadSecretBox(panel.dataDir);
  await saveHost(panel.db, box, { name: 'default', ...mariadb() }, panel.clock.now());
  const owner = await panel.user();
  const headers = await panel.bearerHeaders(owner);
  const demo = await findEgg(panel.db, 'Demo game');
  return {
    box,
    async server() {
      const server = await panel.server(owner, { eggId: demo?.id });
      servers.push(server);
      return server;
    },
    api: (server: ServerRow, method: 'GET' | 'POST', url: string, payload?: object) =>
      panel.app.inject({ method, url: `/api/client/servers/${server.uuid}${url}`, headers, ...(payload ? { payload } : {}) }),
  };
});

describe('server:delete', () => {
  it(
    'stops the running server, drops its databases and users on the host, and removes its volume, backups and install output',
    { timeout: 60_000 },
    async ({ panel, made }) => {
      const server = await made.server();
      const neighbour = await made.server();
      const names: string[] = [];
      for (const target of [server, server, neighbour]) {
        const res = await made.api(target, 'POST', '/databases', { database: `db_${randomAlnum(6)}`, remote: '%' });
        expect(res.statusCode).toBe(200);
        if (target === server) names.push((res.json() as { attributes: { name: string } }).attributes.name);
      }
      const backup = await made.api(server, 'POST', '/backups', {});
      expect(backup.statusCode).toBe(200);
      await settled(panel, (backup.json() as { attributes: { uuid: string } }).attributes.uuid);
      const backupsDir = path.join(panel.dataDir, 'backups', server.uuid);
      expect(fs.readdirSync(backupsDir).length).toBeGreaterThan(0);
      expect((await made.api(server, 'POST', '/power', { signal: 'start' })).statusCode).toBe(204);
      await eventually(() => panel.daemon.process.state(server.uuid) === 'running');
      expect((await onHost(server.id)).databases.sort()).toEqual([...names].sort());

      const out = await runCli(['server:delete', '--server', server.uuid_short], {
        db: panel.db,
        nodes: panel.nodes,
        clock: panel.clock,
        box: made.box,
      });
      expect(out).toMatchObject({ deleted: server.uuid_short, uuid: server.uuid });
      expect([...(out as { databases_dropped: string[] }).databases_dropped].sort()).toEqual([...names].sort());

      expect(panel.daemon.process.state(server.uuid)).toBe('offline');
      expect(await onHost(server.id)).toEqual({ databases: [], users: [] });
      expect(fs.existsSync(panel.daemon.volumePath(server.uuid))).toBe(false);
      expect(fs.existsSync(backupsDir)).toBe(false);
      expect(fs.readdirSync(path.join(panel.dataDir, 'logs')).filter((f) => f.startsWith(`${server.uuid}.install`))).toEqual([]);
      expect(await panel.db.selectFrom('servers').select('id').where('id', '=', server.id).execute()).toEqual([]);
      expect(await panel.db.selectFrom('databases').select('id').where('server_id', '=', server.id).execute()).toEqual([]);
      expect(await panel.db.selectFrom('backups').select('id').where('server_id', '=', server.id).execute()).toEqual([]);
      // Another server's database on the same host is untouched.
      expect((await onHost(neighbour.id)).databases).toHaveLength(1);
      expect((await made.api(neighbour, 'GET', '/databases')).json()).toMatchObject({ data: [expect.anything()] });
    },
  );
});
