import { createHash, randomBytes } from 'node:crypto';
import { constants as C } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import ignore, { type Ignore } from 'ignore';
import type { BackupCapability, DaemonEvent } from '../capabilities';
import { DaemonError, type ExtractLimits } from '../types';
import { writeArchive } from './archive-create';
import { openArchive, reasonOf, restoreArchive, type RestoreParts } from './backup-restore';
import { isErrno } from './confined';
import { isServerUuid, type Configurations } from './configurations';
import { diskLimitBytes } from './files';
import { fileBytes, measureUsage, NOTHING } from './disk-usage';
import { PART_PREFIX } from './parts';
import { isTempName, missing } from './paths';
import { syncDirectory } from './volume-swap';

/*
 * Backups, as Wings' local adapter keeps them: `<data dir>/backups/<server>/<backup>.tar.gz`,
 * beside the volumes and outside every one of them, so they cost the server none of its disk
 * limit and no member can read or replace them. A backup is written by compress's writer (the
 * same no-follow, handle-checked walk; links are never stored) into a part file in that directory,
 * fsync'd and renamed only when complete: an archive under its real name is always whole, and a
 * part left by a crash is removed at the next start (`sweep`). A restore is `backup-restore.ts`.
 *
 * A backup holds the whole volume, compress's caps aside, but never more bytes than the server's
 * disk limit nor more files and folders than it may hold: a restore writes every byte of every
 * file (a sparse file in full, each hard link as a file of its own) under those limits, so a
 * larger archive could never be restored, and reading a 1 TiB sparse file or a thousand links to
 * one large file would keep the node busy for nothing.
 */

/** Wings reads at most this much of `.pteroignore`. */
const MAX_IGNORE_FILE_BYTES = 32 * 1024;
/** How often a running backup tells the consoles how far it is. */
const PROGRESS_INTERVAL_MS = 1000;
const IN_USE = 'This backup is being written or restored.';

export interface BackupOptions extends RestoreParts {
  /** Where the archives live: `<data dir>/backups`. */
  root: string;
  configurations: Configurations;
  emit: (event: DaemonEvent) => void;
  /** The server's `.pteroignore`, or '' (a link or a larger file is not read, as Wings). */
  ignoreFile: (server: string, maxBytes: number) => Promise<string>;
  /** Files and folders one server may hold (0 = no cap), which a restore may not pass either. */
  maxEntries: () => number;
}

interface Job {
  kind: 'writing' | 'restoring';
  abort: AbortController;
  done: Promise<void>;
}

const isUuid = isServerUuid;

/**
 * Whether the rules leave an entry out. Directories are tested with their trailing slash, so
 * `cache/` names the folder (gitignore); a name the package cannot judge (`...`) is kept.
 */
function ignores(rules: Ignore, member: string, isDirectory: boolean): boolean {
  try {
    return rules.ignores(isDirectory ? `${member}/` : member);
  } catch {
    return false;
  }
}

export class LocalBackups implements BackupCapability {
  /** Backups being written or restored, by `<server>/<backup>`. */
  private readonly jobs = new Map<string, Job>();
  private swept: Promise<void> = Promise.resolve();

  constructor(private readonly options: BackupOptions) {}

  private file(server: string, backup: string): string {
    if (!isUuid(server) || !isUuid(backup)) throw missing();
    return path.join(this.options.root, server, `${backup}.tar.gz`);
  }

  /**
   * Removes the part files a crash left (`backups/<server>/.aerie-*`); backups started meanwhile
   * wait for it. Run once, by the process that serves the node (`LocalDaemon.sweepLeftovers`).
   */
  sweep(): Promise<void> {
    this.swept = (async () => {
      for (const server of (await fs.readdir(this.options.root).catch(() => [])).filter(isUuid)) {
        const dir = path.join(this.options.root, server);
        for (const name of (await fs.readdir(dir).catch(() => [])).filter(isTempName)) {
          await fs.rm(path.join(dir, name), { force: true, recursive: true }).catch((error: unknown) => {
            this.options.log(`could not remove the partial backup ${name} in ${dir}`, error);
          });
        }
      }
    })();
    return this.swept;
  }

  /**
   * Starts a job on one backup; `conflict` while another runs on it. What `work` returns reports
   * how it ended, once the job is over: a listener that reacts (deletes the backup, restores it
   * again, writes files) is not refused by the job it hears about.
   */
  private start(server: string, backup: string, kind: Job['kind'], work: (signal: AbortSignal) => Promise<() => void>): void {
    const key = `${server}/${backup}`;
    if (this.jobs.has(key)) throw new DaemonError('conflict', IN_USE);
    const abort = new AbortController();
    const job: Job = { kind, abort, done: Promise.resolve() };
    this.jobs.set(key, job);
    job.done = work(abort.signal).then(
      (report) => {
        this.jobs.delete(key);
        report();
      },
      (error: unknown) => {
        this.jobs.delete(key);
        this.options.log(`backup ${backup} of ${server}: the ${kind} failed`, error);
      },
    );
  }

  async create(server: string, backup: string, ignored: string[]): Promise<void> {
    const target = this.file(server, backup);
    const configuration = await this.options.configurations.get(server);
    const vol = await this.options.volumes.open(server);
    const limits: ExtractLimits = { maxBytes: diskLimitBytes(configuration) || Infinity, maxEntries: this.options.maxEntries() || Infinity };
    // A volume being replaced (a restore, a reinstall) would be saved half-done.
    this.options.locks.admit(server);
    if (await fs.lstat(target).catch(() => null)) throw new DaemonError('conflict', 'This backup exists already.');
    this.start(server, backup, 'writing', async (signal) => {
      let result = { successful: false, checksum: '', bytes: 0 };
      try {
        await this.swept;
        const patterns = ignored.some((line) => line.trim() !== '') ? ignored : await this.options.ignoreFile(server, MAX_IGNORE_FILE_BYTES);
        const rules = ignore({ allowRelativePaths: true }).add(patterns);
        const dir = path.dirname(target);
        await fs.mkdir(dir, { recursive: true, mode: 0o700 });
        const part = path.join(dir, `${PART_PREFIX}${randomBytes(8).toString('hex')}.part`);
        const out = await fs.open(part, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o600);
        let renamed = false;
        try {
          const hash = createHash('sha1');
          let bytes = 0;
          const progress = this.progressOf(server, backup, (await measureUsage(vol, fileBytes).catch(() => NOTHING)).bytes);
          await writeArchive(vol, [], 'everything', out, {
            limits,
            tooMuch: (what) => new DaemonError('bad_request', `the server holds ${what}, past its limits, so the backup could not be restored.`),
            signal,
            meter: () => Promise.resolve(),
            filter: (member, isDirectory) => !ignores(rules, member, isDirectory),
            onChunk: (chunk) => {
              hash.update(chunk);
              bytes += chunk.length;
            },
            onRead: progress,
          });
          // On disk before it has its name: a crash leaves a part file or a whole archive, nothing between.
          await out.sync();
          await out.close();
          await fs.rename(part, target);
          renamed = true;
          await syncDirectory(dir);
          result = { successful: true, checksum: hash.digest('hex'), bytes };
        } finally {
          await out.close().catch(() => undefined);
          // A failed backup leaves nothing, not even an archive whose name did not reach the disk.
          if (!result.successful) await fs.rm(renamed ? target : part, { force: true });
        }
      } catch (error) {
        this.options.announce(server, { type: 'daemon message', line: `Backup failed: ${reasonOf(error)}` });
        if (!(error instanceof DaemonError) && !isErrno(error, 'ENOSPC', 'EDQUOT')) this.options.log(`backup ${backup} of ${server} failed`, error);
      }
      const { successful, checksum, bytes } = result;
      return () => {
        this.options.emit({ type: 'backup.completed', server, backup, successful, checksum: successful ? `sha1:${checksum}` : '', bytes });
        this.options.announce(server, { type: 'backup completed', backup, successful, checksum, bytes });
      };
    });
  }

  /**
   * Tells the server's consoles how far the backup is, at most once a second: the bytes read of
   * what its files held at the start (ignored files and files written since make it approximate,
   * so it stays below 1 until the backup completes).
   */
  private progressOf(server: string, backup: string, total: number): (bytes: number) => void {
    let read = 0;
    let told = 0;
    return (bytes) => {
      read += bytes;
      const now = Date.now();
      if (total <= 0 || now - told < PROGRESS_INTERVAL_MS) return;
      told = now;
      this.options.announce(server, { type: 'backup progress', backup, progress: Math.min(0.99, read / total) });
    };
  }

  async restore(server: string, backup: string, options: { truncate: boolean }): Promise<void> {
    const target = this.file(server, backup);
    const configuration = await this.options.configurations.get(server);
    const vol = await this.options.volumes.open(server);
    const archive = await openArchive(target);
    try {
      // Refused now rather than reported later: the caller learns at once that nothing started.
      if (this.jobs.has(`${server}/${backup}`)) throw new DaemonError('conflict', IN_USE);
      this.options.locks.admit(server);
    } catch (error) {
      await archive.close();
      throw error;
    }
    const limits = { bytes: diskLimitBytes(configuration), entries: this.options.maxEntries() || Infinity };
    this.start(server, backup, 'restoring', async () => {
      const successful = await restoreArchive(this.options, { server, backup, archive, vol, limits, truncate: options.truncate });
      // Once the lock has let go too, so a listener that reacts by writing files is not refused.
      return () => this.options.emit({ type: 'restore.completed', server, backup, successful });
    });
  }

  async delete(server: string, backup: string): Promise<void> {
    const target = this.file(server, backup);
    if (this.jobs.has(`${server}/${backup}`)) throw new DaemonError('conflict', IN_USE);
    try {
      await fs.unlink(target);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) throw missing();
      throw error;
    }
  }

  async open(server: string, backup: string): Promise<{ size: number; stream: Readable }> {
    const handle = await openArchive(this.file(server, backup));
    const { size } = await handle.stat();
    // Exactly the stat'ed length, so the body always matches Content-Length (an archive is never empty).
    return { size, stream: handle.createReadStream({ start: 0, end: size - 1, autoClose: true }) };
  }

  /** A deleted server's backups go with it: running ones are stopped first. */
  async removeAll(server: string): Promise<void> {
    if (!isUuid(server)) return;
    const running = [...this.jobs.entries()].filter(([key]) => key.startsWith(`${server}/`)).map(([, job]) => job);
    for (const job of running) job.abort.abort();
    await Promise.all(running.map((job) => job.done));
    await fs.rm(path.join(this.options.root, server), { recursive: true, force: true });
  }
}
