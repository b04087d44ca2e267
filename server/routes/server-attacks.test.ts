import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { servers } from '../db/repos';
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
      await eventually(async () => (await a.status()) === null, 20_000);
      expect(a.installs()).toBe(1);
    },
  );
});
