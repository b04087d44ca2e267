import fs from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import type { SecretBox } from '../lib/secret-box';
import { newDatabasePassword } from './database-operations';
import { hostError, type HostAccess } from './database-hosts';

/* The managed MariaDB's admin password: generated once, kept sealed in its directory, set on its local root accounts. */

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '::1'];

/**
 * The generated admin password: every local `root` account gets it (a fresh data dir's root has none).
 * It is sealed into the directory before it is set, so a start cut short between the two is
 * finished at the next one.
 */
export async function secure(dir: string, socket: string, access: HostAccess): Promise<void> {
  try {
    const conn = await mysql.createConnection({ host: access.host, port: access.port, user: access.username, password: access.password });
    await conn.end();
    return;
  } catch {
    // not set yet: the socket still lets root in without one
  }
  let conn: mysql.Connection;
  try {
    conn = await mysql.createConnection({ socketPath: socket, user: 'root', password: '' });
  } catch (error) {
    throw hostError(
      error,
      `The managed MariaDB in ${dir} does not take its stored admin password and has another one set (remove ${dir} to start over)`,
      [access.password],
    );
  }
  try {
    const [users] = await conn.query<mysql.RowDataPacket[]>("SELECT User, Host FROM mysql.user WHERE User IN ('root', '')");
    // Only local root accounts stay (root@<machine name> is of no use with --skip-name-resolve).
    for (const u of users) {
      if (u.User === 'root' && LOCAL_HOSTS.includes(String(u.Host)))
        await conn.query('ALTER USER ?@? IDENTIFIED BY ?', [u.User, u.Host, access.password]);
      else await conn.query('DROP USER ?@?', [u.User, u.Host]);
    }
  } catch (error) {
    throw hostError(error, "Could not set the managed MariaDB's admin password", [access.password]);
  } finally {
    await conn.end().catch(() => conn.destroy());
  }
}

const PASSWORD_FILE = 'admin-password.sealed';

/** The managed instance's admin password, kept sealed in its directory; null before its first start. */
export function readManagedPassword(dir: string, box: SecretBox): string | null {
  const file = path.join(dir, PASSWORD_FILE);
  return fs.existsSync(file) ? box.open(fs.readFileSync(file, 'utf8').trim()) : null;
}

/** The admin password, made and sealed into `dir` at the first start (before it is set: see `secure`). */
export function managedPassword(dir: string, box: SecretBox): string {
  let password = readManagedPassword(dir, box);
  if (password === null) {
    password = newDatabasePassword();
    fs.writeFileSync(path.join(dir, PASSWORD_FILE), `${box.seal(password)}\n`, { mode: 0o600 });
  }
  return password;
}
