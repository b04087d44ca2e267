import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './index';
import { MIGRATION_PROVIDER, migrateToLatest } from './migrate';

describe('migrations', () => {
  it('give the nodes of an existing panel a signing key of their own', async () => {
    const db = openDatabase(':memory:');
    try {
      await new Migrator({ db, provider: MIGRATION_PROVIDER }).migrateTo('001-initial');
      // Rows as the first schema knew them, before nodes had a key.
      await sql`INSERT INTO nodes (uuid, name, fqdn) VALUES ('a', 'one', '127.0.0.1'), ('b', 'two', '10.0.0.2')`.execute(db);
      await migrateToLatest(db);
      const rows = await db.selectFrom('nodes').select(['daemon_base_url', 'daemon_token', 'daemon_token_id']).orderBy('id').execute();
      expect(rows.map((r) => r.daemon_base_url)).toEqual([null, null]);
      expect(rows[0]?.daemon_token).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0]?.daemon_token).not.toBe(rows[1]?.daemon_token);
      // Wings' token_id: 16 characters, one per node.
      expect(rows[0]?.daemon_token_id).toMatch(/^[0-9a-f]{16}$/);
      expect(rows[0]?.daemon_token_id).not.toBe(rows[1]?.daemon_token_id);
    } finally {
      await db.destroy();
    }
  });

  it('give existing eggs the old start and stop rules: running at once, stopped with `stop`', async () => {
    const db = openDatabase(':memory:');
    try {
      await new Migrator({ db, provider: MIGRATION_PROVIDER }).migrateTo('003-activity-retention');
      await sql`INSERT INTO eggs (uuid, name, startup) VALUES ('e', 'Paper', 'java -jar server.jar')`.execute(db);
      await migrateToLatest(db);
      expect(await db.selectFrom('eggs').select(['name', 'config_startup', 'config_stop']).execute()).toEqual([
        { name: 'Paper', config_startup: '{}', config_stop: 'stop' },
      ]);
    } finally {
      await db.destroy();
    }
  });

  it("give an existing panel's demo game egg its install script, and other eggs none", async () => {
    const db = openDatabase(':memory:');
    try {
      await new Migrator({ db, provider: MIGRATION_PROVIDER }).migrateTo('004-egg-process-rules');
      await sql`INSERT INTO eggs (uuid, name, startup) VALUES ('5c0a6a43-9a53-4d8e-8f4c-6d3f2a9e7b10', 'Demo game', 'node demo-game.mjs'), ('e', 'Paper', 'java -jar server.jar')`.execute(
        db,
      );
      await migrateToLatest(db);
      const rows = await db.selectFrom('eggs').select(['name', 'script_install', 'script_container', 'script_entry']).orderBy('id').execute();
      expect(rows[0]?.script_install).toContain('cp /mnt/install/demo-game.mjs demo-game.mjs');
      expect(rows[1]).toEqual({
        name: 'Paper',
        script_install: null,
        script_container: 'ghcr.io/pterodactyl/installers:alpine',
        script_entry: 'ash',
      });
    } finally {
      await db.destroy();
    }
  });

  it("give existing databases their host's connection limit, and mark hosts that had any for the grant repair", async () => {
    const db = openDatabase(':memory:');
    try {
      await new Migrator({ db, provider: MIGRATION_PROVIDER }).migrateTo('009-password-resets');
      // Only the rows under test: the servers and users they would belong to do not matter here.
      await sql`PRAGMA foreign_keys = OFF`.execute(db);
      await sql`INSERT INTO database_hosts (name, host, port, username, password, created_at, updated_at)
        VALUES ('default', '127.0.0.1', 3306, 'root', 'sealed', 't', 't'), ('empty', '10.0.0.2', 3306, 'root', 'sealed', 't', 't')`.execute(db);
      await sql`INSERT INTO databases (server_id, database_host_id, database, username, password, max_connections, created_at, updated_at)
        VALUES (7, 1, 's7_main', 'u7_abcdefghij', 'sealed', NULL, 't', 't'), (8, 1, 's8_map', 'u8_abcdefghij', 'sealed', 3, 't', 't')`.execute(db);
      await migrateToLatest(db);
      await sql`PRAGMA foreign_keys = ON`.execute(db);
      expect(await db.selectFrom('database_hosts').select(['max_connections_per_user', 'grants_need_repair']).orderBy('id').execute()).toEqual([
        { max_connections_per_user: 10, grants_need_repair: 1 },
        { max_connections_per_user: 10, grants_need_repair: 0 },
      ]);
      expect(await db.selectFrom('databases').select(['database', 'max_connections']).orderBy('id').execute()).toEqual([
        { database: 's7_main', max_connections: 10 },
        { database: 's8_map', max_connections: 3 },
      ]);
      await expect(sql`UPDATE databases SET max_connections = NULL`.execute(db)).rejects.toThrow(/NOT NULL/);
    } finally {
      await db.destroy();
    }
  });

  it("give a panel's nodes the reference's settings, and a node made after 017 (the panel's own) the default location", async () => {
    const db = openDatabase(':memory:');
    try {
      await new Migrator({ db, provider: MIGRATION_PROVIDER }).migrateTo('017-locations');
      // The panel's own node, made at a first start after 017 found no nodes to put in a location.
      await sql`INSERT INTO nodes (uuid, name, fqdn, daemon_token, daemon_token_id) VALUES ('a', 'local', '127.0.0.1', 't', 'i')`.execute(db);
      await migrateToLatest(db);
      const node = await db
        .selectFrom('nodes')
        .innerJoin('locations', 'locations.id', 'nodes.location_id')
        .selectAll('nodes')
        .select('short')
        .executeTakeFirst();
      expect(node).toMatchObject({
        short: 'default',
        public: 1,
        behind_proxy: 0,
        upload_size: 100,
        daemon_base: '/var/lib/pterodactyl/volumes',
        description: null,
      });
      expect(node?.created_at).toMatch(/^\d{4}-/);
    } finally {
      await db.destroy();
    }
  });
});
