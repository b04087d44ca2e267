import fs from 'node:fs';
import mysql from 'mysql2/promise';

/* Whether a managed MariaDB runs: one left over from an earlier start, and a new one answering yet. */

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An instance of this directory left running (its pid file names a live mariadbd on our data dir) is stopped. */
export async function stopStale(pidFile: string, dataDir: string): Promise<boolean> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return false;
  let cmdline: string;
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return false;
  }
  if (!cmdline.includes(`--datadir=${dataDir}`)) return false;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 300 && isAlive(pid); i += 1) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  return true;
}

function tail(file: string, lines = 5): string {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Connects over the socket; resolves once the server answers (even "access denied" means it is up). */
export async function waitReady(socket: string, exited: () => string | undefined, timeoutMs: number, errorLog: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const gone = exited();
    if (gone) throw new Error(`MariaDB stopped while starting (${gone}). Its log says:\n${tail(errorLog)}`);
    try {
      const conn = await mysql.createConnection({ socketPath: socket, user: 'root', password: '', connectTimeout: 1000 });
      await conn.end();
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR') return;
    }
    if (Date.now() > deadline) throw new Error(`MariaDB did not accept connections within ${timeoutMs / 1000}s. Its log says:\n${tail(errorLog)}`);
    await sleep(200);
  }
}
