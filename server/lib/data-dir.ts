import fs from 'node:fs';

/**
 * Makes the data dir private to the panel's user before anything is written into it: the
 * directory 0700, the database and its journal files 0600 (SQLite gives the -wal and -shm files
 * the mode of the database file, so creating that one 0600 first is enough for new ones). An
 * existing data dir from an earlier version is tightened the same way.
 */
export function prepareDataDir(dataDir: string, databaseFile: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
  fs.closeSync(fs.openSync(databaseFile, 'a', 0o600));
  for (const file of [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`]) {
    if (fs.existsSync(file)) fs.chmodSync(file, 0o600);
  }
}
