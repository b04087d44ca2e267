import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Socket } from 'node:net';
import ssh2, { type Attributes, type Connection } from 'ssh2';
import type { ActivityEvent } from '../../../src/contract';
import { DaemonError } from '../types';
import type { FileWriter } from './files';
import { display, resolveBeneath } from './paths';
import type { SftpGrant, SftpOptions } from './sftp-options';
import { longname, Refused, denied, TYPE_BITS } from './sftp-replies';

/* One signed-in SFTP connection's state: its handles, its turn-taking, and its activity batch. */

const { STATUS_CODE } = ssh2.utils.sftp;

/** Handles one session may hold open (each is a file descriptor, a write's also a file aside): past it OPEN fails. */
export const MAX_HANDLES = 64;
/**
 * Requests of one session worked on at once (ssh2's and OpenSSH's clients keep 64 under way); the
 * rest wait their turn, so a burst of pipelined requests cannot open a descriptor each at once.
 */
const MAX_IN_FLIGHT = 64;
/** Requests that may wait their turn: a client sending more is not one that waits for answers. */
const MAX_WAITING = 1024;

/**
 * What one user's sessions hold in directory listings, together: listed one at a time, and at
 * most one full listing's worth of entries (`LocalFiles.maxListEntries`) held until read or
 * closed. Each entry held costs about a kilobyte, so a listing per handle would not be bounded.
 */
export interface Listings {
  held: number;
  turn: Promise<void>;
}

type DirEntry = { filename: string; longname: string; attrs: Attributes };

export type Handle =
  | { kind: 'read'; file: FileHandle; path: string }
  | { kind: 'write'; writer: FileWriter; path: string; created: boolean }
  | { kind: 'dir'; entries: DirEntry[] };

/**
 * Closes a connection without waiting for the client: ssh2's `end()` only half-closes the socket,
 * which a hostile client may keep open forever.
 */
export function drop(client: Connection): void {
  const socket = (client as unknown as { _sock?: Socket })._sock;
  if (socket) socket.destroy();
  else client.end();
}

/** One signed-in connection: its grant, open handles, and the activity it has yet to report. */
export class Session {
  private readonly handles = new Map<string, Handle>();
  private readonly pending = new Map<ActivityEvent, unknown[]>();
  private flushTimer: NodeJS.Timeout | null = null;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  closed = false;

  constructor(
    readonly grant: SftpGrant,
    private readonly ip: string,
    readonly connection: Connection,
    readonly options: SftpOptions,
    private readonly listings: Listings,
  ) {}

  can(permission: string): boolean {
    return this.grant.permissions.includes('*') || this.grant.permissions.includes(permission);
  }

  need(permission: string): void {
    if (!this.can(permission)) throw denied();
  }

  record(event: ActivityEvent, file: unknown): void {
    const list = this.pending.get(event) ?? [];
    list.push(file);
    this.pending.set(event, list);
    this.flushTimer ??= setTimeout(() => this.flush(), this.options.batchMs ?? 2_000);
    this.flushTimer.unref();
  }

  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    for (const [event, files] of this.pending) {
      const { server, user } = this.grant;
      this.options.report({ type: 'activity', server, user, ip: this.ip, event, properties: { files, using_sftp: true } });
    }
    this.pending.clear();
  }

  /** Ends the connection and drops every unfinished write. */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    for (const handle of this.handles.values()) void this.release(handle);
    this.handles.clear();
    for (const next of this.waiting.splice(0)) next();
    this.flush();
    drop(this.connection);
  }

  /** A directory's entries, listed in the user's turn and counted against what the user holds. */
  list(dir: string): Promise<DirEntry[]> {
    const listings = this.listings;
    const listed = listings.turn.then(async () => {
      const entries = await this.options.files.list(this.grant.server, dir);
      if (listings.held + entries.length > this.options.files.maxListEntries) {
        throw new DaemonError('bad_request', 'Too many directory entries are held open: read or close other listings first.');
      }
      listings.held += entries.length;
      return entries.map((e) => {
        const type = e.isDirectory ? TYPE_BITS.dir : e.isSymlink ? TYPE_BITS.link : TYPE_BITS.file;
        const mtime = Math.floor(e.modifiedMs / 1000);
        const attrs: Attributes = { mode: type | parseInt(e.modeBits, 8), uid: 0, gid: 0, size: e.size, atime: mtime, mtime };
        return { filename: e.name, longname: longname(e.name, attrs), attrs };
      });
    });
    listings.turn = listed.then(
      () => undefined,
      () => undefined,
    );
    return listed;
  }

  /** Entries of a listing handed out or dropped: no longer held. */
  unlist(handle: Handle & { kind: 'dir' }, count = handle.entries.length): DirEntry[] {
    const taken = handle.entries.splice(0, count);
    this.listings.held -= taken.length;
    return taken;
  }

  private async release(handle: Handle): Promise<void> {
    if (handle.kind === 'dir') this.unlist(handle);
    if (handle.kind === 'read') await handle.file.close().catch(() => undefined);
    if (handle.kind === 'write') await handle.writer.abort().catch(() => undefined);
  }

  /** Refuses an OPEN once the session holds its most handles (checked before and after the open). */
  roomForHandle(): void {
    if (this.handles.size >= MAX_HANDLES) throw new DaemonError('bad_request', 'Too many open handles: close some first.');
  }

  add(handle: Handle): Buffer {
    if (this.handles.size >= MAX_HANDLES) {
      void this.release(handle);
      this.roomForHandle();
    }
    const id = randomBytes(8);
    this.handles.set(id.toString('hex'), handle);
    return id;
  }

  /** What using a write handle needs, now: a permission dropped since the OPEN stops it. */
  mayWrite(handle: Handle & { kind: 'write' }): boolean {
    return this.can(handle.created ? 'file.create' : 'file.update');
  }

  handle(id: Buffer): Handle {
    const handle = this.handles.get(id.toString('hex'));
    if (!handle) throw new Refused(STATUS_CODE.FAILURE);
    return handle;
  }

  /** The handle `id` names, no longer the session's (CLOSE). */
  detach(id: Buffer): Handle {
    const handle = this.handle(id);
    this.handles.delete(id.toString('hex'));
    return handle;
  }

  /** The volume path of a client's path; relative paths are from the volume root (the session's home). */
  path(input: string): string {
    return display(resolveBeneath([], input));
  }

  async exists(file: string): Promise<Stats | null> {
    return this.options.files.stat(this.grant.server, file).catch((error: unknown) => {
      if (error instanceof DaemonError && error.kind === 'not_found') return null;
      throw error;
    });
  }

  /** Runs `work` once fewer than MAX_IN_FLIGHT requests are under way; a finished one hands its place on. */
  async turn(work: () => Promise<void>): Promise<void> {
    if (this.inFlight < MAX_IN_FLIGHT) this.inFlight += 1;
    else {
      if (this.waiting.length >= MAX_WAITING) return this.end();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      if (!this.closed) await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.inFlight -= 1;
    }
  }
}
