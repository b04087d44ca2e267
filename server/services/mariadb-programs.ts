import fs from 'node:fs';
import path from 'node:path';

/* Where MariaDB's programs are on this machine, for the managed instance (`managed-mariadb.ts`). */

const SEARCH_DIRS = ['/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin'];

function findProgram(names: readonly string[]): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...SEARCH_DIRS];
  for (const name of names) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export interface MariadbPrograms {
  server: string;
  installDb: string;
}

/** mariadbd (or mysqld) and mariadb-install-db (or mysql_install_db), on the PATH or in the sbin dirs. */
export function findMariadb(): MariadbPrograms | undefined {
  const server = findProgram(['mariadbd', 'mysqld']);
  const installDb = findProgram(['mariadb-install-db', 'mysql_install_db']);
  return server && installDb ? { server, installDb } : undefined;
}
