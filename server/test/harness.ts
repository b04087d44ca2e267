import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { testConfig, type Config } from '../config';
import { openTestDatabase, type Db } from '../db';
import type { NodeRow, UserRow, ServerRow } from '../db/schema';
import { fixedClock } from '../lib/time';
import { createUser, enableTotp } from '../services/users';
import { localDaemon } from '../services/local-node';
import { nodeDaemons } from '../services/node-daemons';
import { createServer, findEgg, type CreateServerInput } from '../services/servers';
import { addSubuser } from '../services/subusers';
import { createSession } from '../services/sessions';
import { ALL_GRANTS, createApiKey, type ApplicationGrants } from '../services/api-keys';
import { lifetimesOf } from '../http/authenticate';
import { loadSecretBox } from '../lib/secret-box';

/**
 * One isolated panel per test: in-memory SQLite, a temporary data dir, a movable clock and the
 * real app reached through `inject`. Fixtures go through the same services as the CLI.
 * Tests get their panels from `test/fixtures.ts`, which closes them when the test ends.
 */
export async function makeTestPanel(overrides: Partial<Config> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-test-'));
  let db: Db | undefined;
  try {
    const config = testConfig({ dataDir, ...overrides });
    db = await openTestDatabase();
    const clock = fixedClock('2026-03-01T12:00:00Z');
    // The console socket's timers shortened, so tests see expiry and re-authentication in moments.
    const daemon = localDaemon(db, {
      dataDir,
      clock,
      maxUploadBytes: config.maxUploadBytes,
      // Panel tests do not test limits: they run on machines without usable cgroups too, unless a test asks otherwise.
      allowUnlimitedServers: overrides.allowUnlimitedServers ?? true,
      socketTimings: { expiryCheckMs: 50, reauthGraceMs: 400 },
    });
    const nodes = nodeDaemons(daemon, loadSecretBox(dataDir), daemon);
    const app: FastifyInstance = await buildApp({ config, db, nodes, clock });
    return panelOf({ dataDir, config, db, clock, daemon, nodes, app });
  } catch (err) {
    // A panel that failed half-way is nobody's to close: leave no database or temp dir behind.
    await db?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

type PanelParts = {
  dataDir: string;
  config: Config;
  db: Db;
  clock: ReturnType<typeof fixedClock>;
  daemon: ReturnType<typeof localDaemon>;
  nodes: ReturnType<typeof nodeDaemons>;
  app: FastifyInstance;
};

function panelOf({ dataDir, config, db, clock, daemon, nodes, app }: PanelParts) {
  let counter = 0;
  let closed = false;

  const panel = {
    app,
    db,
    config,
    clock,
    daemon,
    nodes,
    dataDir,
    async user(opts: { admin?: boolean; email?: string; username?: string; password?: string } = {}): Promise<UserRow> {
      counter += 1;
      return createUser(
        db,
        {
          email: opts.email ?? `user${counter}@example.com`,
          username: opts.username ?? `user${counter}`,
          password: opts.password ?? 'correct horse battery',
          admin: opts.admin ?? false,
          firstName: 'Test',
          lastName: `User${counter}`,
        },
        clock.now(),
      );
    },
    /** A server on the Paper egg unless `eggId` says otherwise: an empty volume, no program placed in it. */
    async server(owner: UserRow, opts: Partial<CreateServerInput> = {}): Promise<ServerRow> {
      counter += 1;
      const eggId = opts.eggId ?? (await findEgg(db, 'Paper'))?.id;
      return createServer(
        db,
        nodes,
        { ownerId: owner.id, name: opts.name ?? `Server ${counter}`, ports: config.allocationPorts, ...opts, eggId },
        clock.now(),
      );
    },
    /** A remote node's row at `https://<name>.example.com:8080`, where nothing answers, with credentials of its own. */
    remoteNode: (name: string): Promise<NodeRow> =>
      db
        .insertInto('nodes')
        .values({
          uuid: randomUUID(),
          name,
          fqdn: `${name}.example.com`,
          sftp_port: 2022,
          maintenance_mode: 0,
          daemon_base_url: `https://${name}.example.com:8080`,
          ...nodes.newCredentials(),
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    /** Has the node fetch a server's configuration again, after a test changed its row directly. */
    reconfigure: (server: ServerRow) => daemon.servers.sync(server.uuid),
    async subuser(server: ServerRow, user: UserRow, permissions: string[]) {
      return addSubuser(db, server, user.email, permissions, clock.now());
    },
    enableTotp: (user: UserRow) => enableTotp(db, loadSecretBox(dataDir), user.id, clock.now()),
    /** Headers of a signed-in browser: session cookie plus the matching CSRF header. */
    async sessionHeaders(user: UserRow): Promise<Record<string, string>> {
      const s = await createSession(db, user.id, {
        ip: '127.0.0.1',
        userAgent: 'test',
        lifetimes: lifetimesOf(config),
        now: clock.now(),
      });
      return { cookie: `${config.sessionCookie}=${s.token}; XSRF-TOKEN=${s.csrfToken}`, 'x-xsrf-token': s.csrfToken };
    },
    /** Headers of an API client using a bearer key. */
    async bearerHeaders(user: UserRow): Promise<Record<string, string>> {
      const key = await createApiKey(db, user.id, 'test', clock.now());
      return { authorization: `Bearer ${key.token}` };
    },
    /** Headers of a billing system using an application key of `user` (every resource read-write unless `grants` says). */
    async applicationHeaders(user: UserRow, grants: ApplicationGrants = ALL_GRANTS): Promise<Record<string, string>> {
      const key = await createApiKey(db, user.id, 'billing', clock.now(), [], { type: 'application', grants });
      return { authorization: `Bearer ${key.token}` };
    },
    /** Closes the app and the database and removes the data dir; a second call does nothing. */
    async close() {
      if (closed) return;
      closed = true;
      try {
        // A socket a test left open (a raw-socket test that failed) must not keep the panel from closing.
        app.server.closeAllConnections();
        await app.close();
      } finally {
        try {
          await db.destroy();
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      }
    },
  };
  return panel;
}

export type TestPanel = ReturnType<typeof panelOf>;
