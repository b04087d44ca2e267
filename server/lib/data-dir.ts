import fs from 'node:fs';

/**
 * Makes the data dir private to the panel's user before anything is written into it: the
 * directory 0700, the database and its journal files 0600 (SQLite gives the -wal and -shm files
 * the mode of the database file, so creating that one 0600 first is enough for new ones). An
 * existing data dir from an earlier version is tightened the same way.
 *
 * A root panel opens its data dir to the servers' group (root:<gid> 0710, `host-user.ts`): that
 * is left as it is, or every start of the admin CLI beside a running panel closed it for a moment,
 * and a server starting or installing then (as the e2e tests' CLI calls do) failed.
 */
export function prepareDataDir(dataDir: string, databaseFile: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!isServersPassage(fs.statSync(dataDir))) fs.chmodSync(dataDir, 0o700);
  fs.closeSync(fs.openSync(databaseFile, 'a', 0o600));
  for (const file of [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`]) {
    if (fs.existsSync(file)) fs.chmodSync(file, 0o600);
  }
}

/** root:<a group other than root's> 0710, as a root panel leaves its data dir for its servers' user. */
function isServersPassage(dir: fs.Stats): boolean {
  return process.getuid?.() === 0 && dir.uid === 0 && dir.gid !== 0 && (dir.mode & 0o777) === 0o710;
}
