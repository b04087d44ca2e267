import { describe, expect } from 'vitest';
import { testConfig } from '../config';
import { LocalDaemon } from '../daemon/local';
import type { Db } from '../db';
import { it } from '../test/fixtures';
import { DEMO_ACCOUNTS } from './demo';
import { FIRST_ADMIN, firstStart, isLoopback } from './first-start';
import { nodeDaemons } from './node-daemons';
import { serverConfiguration } from './server-configuration';
import { loadSecretBox } from '../lib/secret-box';
import { changePassword, findUserByEmail, verifyPassword } from './users';

const NOW = new Date('2026-03-01T12:00:00Z');
const test = it.extend(
  'start',
  async ({ database, tempDir }) =>
    (env: { host?: string; seedDemo?: boolean; seedDemoForce?: boolean }, db: Db = database) =>
      firstStart(
        db,
        nodeDaemons(new LocalDaemon(tempDir, { configurationSource: (uuid) => serverConfiguration(db, uuid) }), loadSecretBox(tempDir)),
        testConfig({ dataDir: tempDir, host: undefined, seedDemo: true, seedDemoForce: false, ...env }),
        NOW,
      ),
);

describe('where a start listens and what it seeds', () => {
  test('seeds the demo and listens on 127.0.0.1 when HOST is not set', async ({ start }) => {
    const first = await start({});
    expect(first.host).toBe('127.0.0.1');
    expect(first.demo?.accounts).toHaveLength(2);
    expect(first.admin).toBeUndefined();
  });

  test('keeps a panel that still holds the demo accounts on 127.0.0.1, and listens everywhere once their password changed', async ({
    start,
    database,
  }) => {
    await start({});
    expect(await start({ seedDemo: false })).toEqual({ host: '127.0.0.1' });
    const admin = await findUserByEmail(database, DEMO_ACCOUNTS.admin.email);
    await changePassword(database, admin?.id ?? 0, 'not the published one', NOW);
    expect(await start({})).toEqual({ host: '0.0.0.0' });
  });

  test('listens where HOST says', async ({ start }) => {
    expect((await start({ host: '::1' })).host).toBe('::1');
  });

  test('refuses to seed the demo on an address other machines reach, naming the flag that forces it', async ({ start, database }) => {
    await expect(start({ host: '0.0.0.0' })).rejects.toThrow(/PANEL_SEED_DEMO_FORCE=true/);
    expect(await findUserByEmail(database, DEMO_ACCOUNTS.admin.email)).toBeUndefined();
    const forced = await start({ host: '0.0.0.0', seedDemoForce: true });
    expect(forced.host).toBe('0.0.0.0');
    expect(forced.demo?.accounts).toHaveLength(2);
  });

  test('gives a non-demo first start a root admin with a random password, once, and the built-in eggs', async ({ start, database }) => {
    const first = await start({ seedDemo: false });
    expect(first.host).toBe('0.0.0.0');
    expect(first.admin).toMatchObject(FIRST_ADMIN);
    const password = first.admin?.password ?? '';
    expect(password.length).toBeGreaterThanOrEqual(20);
    const row = await findUserByEmail(database, FIRST_ADMIN.email);
    expect(row?.root_admin).toBe(1);
    expect(await verifyPassword(row?.password_hash ?? '', password)).toBe(true);
    expect(row?.password_hash).not.toContain(password);
    // The admin area can make a first server: its egg list is not empty.
    expect((await database.selectFrom('eggs').select('name').orderBy('id').execute()).map((e) => e.name)).toEqual(['Demo game', 'Paper']);

    expect(await start({ seedDemo: false })).toEqual({ host: '0.0.0.0' });
  });

  test('tells loopback addresses from others', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) expect(isLoopback(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'panel.example.com', '::ffff:10.0.0.1']) expect(isLoopback(host)).toBe(false);
  });
});
