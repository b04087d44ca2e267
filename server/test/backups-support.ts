import { gunzipSync } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { backups, servers } from '../db/repos';
import type { Backup } from '../db/repos/backups';
import type { TestPanel } from './harness';

/*
 * Backup test support: waiting for the node's reports (they arrive through the daemon event
 * channel, on their own time) and reading an archive the node served.
 */

const pause = () => new Promise((resolve) => setTimeout(resolve, 25));

/** Waits until the node has reported the end of a backup the API started. */
export async function settled(panel: TestPanel, uuid: string, timeoutMs = 10_000): Promise<Backup> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await pause()) {
    const backup = await backups.findByUuid(panel.db, uuid);
    if (backup?.completed_at) return backup;
  }
  throw new Error(`backup ${uuid} never finished`);
}

/** Waits until the node has reported the end of a server's restore (its status is cleared). */
export async function restoreEnded(panel: TestPanel, serverId: number, timeoutMs = 10_000): Promise<void> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await pause()) {
    if ((await servers.findById(panel.db, serverId))?.status !== 'restoring_backup') return;
  }
  throw new Error(`the restore of server ${serverId} never ended`);
}

/** Every member of a .tar.gz: path → content (directories end with `/`), and each member's type. */
export async function archiveMembers(archive: Buffer): Promise<{ contents: Map<string, string>; types: string[] }> {
  const contents = new Map<string, string>();
  const types: string[] = [];
  const reading: Promise<void>[] = [];
  const parser = new Parser({
    onReadEntry: (entry: ReadEntry) => {
      types.push(entry.type);
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      reading.push(new Promise((resolve) => entry.on('end', () => resolve(void contents.set(entry.path, Buffer.concat(chunks).toString('latin1'))))));
    },
  });
  const ended = new Promise((resolve) => parser.on('end', resolve));
  parser.end(gunzipSync(archive));
  await ended;
  await Promise.all(reading);
  return { contents, types };
}
