import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadSecretBox } from '../lib/secret-box';
import { parseHostUrl, type HostAccess } from '../services/database-hosts';
import { startManagedMariadb } from '../services/managed-mariadb';

/*
 * A real MariaDB for a test file: AERIE_TEST_MARIADB_URL (mysql://root:pw@host:port, an account
 * with every privilege and GRANT OPTION) when given, else a private instance started before the
 * file's tests (mariadb-install-db and mariadbd in a temp dir, own socket and port, the same code
 * as the panel's managed instance) and stopped and removed after them.
 *
 *   const mariadb = useTestMariadb();
 *   it('…', async () => { const access = mariadb(); … });
 */

/** A port nobody listens on right now (the kernel's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function useTestMariadb(): () => HostAccess {
  let access: HostAccess | undefined;
  let stop: (() => Promise<void>) | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    const url = process.env.AERIE_TEST_MARIADB_URL;
    if (url) {
      access = parseHostUrl(url);
      return;
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-mariadb-'));
    const managed = await startManagedMariadb({ dir: path.join(dir, 'mariadb'), port: await freePort(), box: loadSecretBox(dir) });
    access = managed.access;
    stop = managed.stop;
  }, 120_000);
  afterAll(async () => {
    await stop?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
  return () => {
    if (!access) throw new Error('The test MariaDB is not running (useTestMariadb() must be called at the top of the file).');
    return access;
  };
}
