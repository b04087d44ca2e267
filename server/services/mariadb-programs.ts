import path from 'node:path';
import { findProgram } from '../lib/programs';

/* Where MariaDB's programs are on this machine, for the managed instance (`managed-mariadb.ts`). */

const SEARCH_DIRS = ['/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin'];

/** The first of `names` found on the PATH or in the sbin dirs. */
function findFirst(names: readonly string[]): string | undefined {
  const searchPath = [process.env.PATH ?? '', ...SEARCH_DIRS].join(path.delimiter);
  for (const name of names) {
    const found = findProgram(name, searchPath);
    if (found) return found;
  }
  return undefined;
}

export interface MariadbPrograms {
  server: string;
  installDb: string;
}

/** mariadbd (or mysqld) and mariadb-install-db (or mysql_install_db), on the PATH or in the sbin dirs. */
export function findMariadb(): MariadbPrograms | undefined {
  const server = findFirst(['mariadbd', 'mysqld']);
  const installDb = findFirst(['mariadb-install-db', 'mysql_install_db']);
  return server && installDb ? { server, installDb } : undefined;
}
