import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { fixedClock } from '../lib/time';
import { localDaemon } from './local-node';
import { test } from '../test/fixtures';
import { freePort } from '../test/node-support';
import { nodeDaemons } from './node-daemons';
import { loadSecretBox } from '../lib/secret-box';
import { DEMO_ACCOUNTS, isPanelEmpty, seedDemo } from './demo';
import { findUserByEmail, verifyPassword } from './users';

const now = new Date('2026-03-01T12:00:00Z');

// Wired as the panel wires it, so a server's install script lays out its program.
const it = test
  .extend('daemon', async ({ tempDir, database }) =>
    localDaemon(database, { dataDir: tempDir, clock: fixedClock('2026-03-01T12:00:00Z'), maxUploadBytes: 1024 * 1024 }),
  )
  .extend('nodes', async ({ tempDir, daemon }) => nodeDaemons(daemon, loadSecretBox(tempDir)));

it('seeds an admin, a regular user without 2FA, and six servers with volumes', async ({ database: db, daemon, nodes }) => {
  expect(await isPanelEmpty(db)).toBe(true);
  const summary = await seedDemo(db, nodes, now);
  expect(await isPanelEmpty(db)).toBe(false);

  const admin = await findUserByEmail(db, DEMO_ACCOUNTS.admin.email);
  const user = await findUserByEmail(db, DEMO_ACCOUNTS.user.email);
  expect(admin?.root_admin).toBe(1);
  expect(user?.root_admin).toBe(0);
  expect(user?.use_totp).toBe(0);
  expect(await verifyPassword(user?.password_hash ?? '', DEMO_ACCOUNTS.user.password)).toBe(true);
  expect(summary.accounts.map((a) => a.email)).toEqual([DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.user.email]);

  const servers = await db.selectFrom('servers').selectAll().execute();
  expect(servers).toHaveLength(6);
  expect(servers.map((s) => s.status).sort()).toEqual(['suspended', null, null, null, null, null].sort());
  expect(new Set(servers.map((s) => s.owner_id))).toEqual(new Set([admin?.id, user?.id]));
  for (const s of servers) {
    expect(s.allocation_id).not.toBeNull();
    expect(fs.existsSync(daemon.volumePath(s.uuid))).toBe(true);
  }
});

it('gives servers extra allocations with notes, free ports, variables, a subuser and activity', async ({ database: db, nodes }) => {
  await seedDemo(db, nodes, now);
  const allocations = await db.selectFrom('allocations').selectAll().execute();
  const ports = allocations.map((a) => `${a.ip}:${a.port}`);
  expect(new Set(ports).size).toBe(ports.length);
  expect(allocations.filter((a) => a.server_id !== null && a.notes).length).toBeGreaterThanOrEqual(3);
  expect(allocations.filter((a) => a.server_id === null).length).toBeGreaterThan(0);

  const variables = await db.selectFrom('server_variables').selectAll().execute();
  expect(variables.length).toBe(6); // each server's message of the day

  const subusers = await db.selectFrom('subusers').selectAll().execute();
  expect(subusers).toHaveLength(1);
  expect(JSON.parse(subusers[0]?.permissions ?? '[]')).toContain('control.console');

  const events = await db.selectFrom('activity_logs').select(['event', 'timestamp', 'properties']).execute();
  const names = new Set(events.map((e) => e.event));
  for (const e of ['server:console.command', 'server:file.write', 'server:settings.rename', 'server:power.start', 'auth:success']) {
    expect(names).toContain(e);
  }
  for (const e of events) {
    expect(new Date(e.timestamp).getTime()).toBeLessThan(now.getTime());
    expect(typeof JSON.parse(e.properties)).toBe('object');
  }
});

// Issue 22 #11: "Modded Testbed" was seeded as installing, which nothing ever ended.
it('seeds no server in a state nothing will end, and no activity about backups that do not exist', async ({ database: db, nodes }) => {
  await seedDemo(db, nodes, now);
  const servers = await db.selectFrom('servers').select('status').execute();
  expect(servers.filter((s) => s.status === 'installing' || s.status === 'restoring_backup')).toEqual([]);
  const backups = await db.selectFrom('backups').selectAll().execute();
  const events = await db.selectFrom('activity_logs').select(['event', 'properties']).execute();
  if (backups.length === 0) expect(events.filter((e) => e.event.startsWith('server:backup'))).toEqual([]);
});

it('takes every demo port from the configured allocation range', async ({ database: db, nodes }) => {
  await seedDemo(db, nodes, now, { start: 40000, end: 40999 });
  const ports = (await db.selectFrom('allocations').select('port').execute()).map((a) => a.port);
  expect(ports.length).toBeGreaterThanOrEqual(10);
  for (const port of ports) expect(port >= 40000 && port <= 40999).toBe(true);
});

it('refuses to seed a panel that already has users', async ({ database: db, nodes }) => {
  await seedDemo(db, nodes, now);
  await expect(seedDemo(db, nodes, now)).rejects.toThrow(/already has users/);
});

it(
  'puts the servers on the demo game egg, its program in each volume, so one starts at once',
  { timeout: 30_000 },
  async ({ database: db, daemon, nodes }) => {
    // Ports of its own: a test in another worker may be running a server on the default range's.
    const start = await freePort();
    await seedDemo(db, nodes, now, { start, end: start + 99 });
    const servers = await db
      .selectFrom('servers')
      .innerJoin('eggs', 'eggs.id', 'servers.egg_id')
      .select(['servers.uuid', 'servers.status', 'eggs.name'])
      .execute();
    expect(new Set(servers.map((s) => s.name))).toEqual(new Set(['Demo game']));
    for (const s of servers) expect(fs.existsSync(path.join(daemon.volumePath(s.uuid), 'demo-game.mjs'))).toBe(true);

    const server = servers.find((s) => s.status === null)?.uuid ?? '';
    try {
      await daemon.process.power(server, 'start');
      for (let i = 0; i < 250 && daemon.process.state(server) !== 'running'; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(daemon.process.state(server)).toBe('running');
      expect(await daemon.process.history(server, 50)).toContainEqual(expect.stringContaining('Welcome to'));
    } finally {
      await daemon.process.stopAll();
    }
  },
);
