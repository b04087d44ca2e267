import { createHash, randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import path from 'node:path';
import ssh2, { type Attributes, type AuthContext, type Connection, type SFTPWrapper, type Server as SshServer } from 'ssh2';
import type { ActivityEvent } from '../../../src/contract';
import type { DaemonEvent } from '../capabilities';
import { ipBucketKey } from '../../lib/ip-bucket';
import { AddressCaps } from '../../lib/connection-caps';
import type { ConnectionCaps } from '../../config';
import { DaemonError } from '../types';
import type { DaemonLog } from './events';
import type { FileWriter, LocalFiles } from './files';
import { display, resolveBeneath } from './paths';

/*
 * The node's SFTP server (Wings' `sftp/`): ssh2's server, the panel deciding who may sign in
 * (Wings asks `POST /api/remote/sftp/auth`), and every operation done by the file manager
 * (`files.ts`), so paths go through the same handle-checked, no-follow resolution and writes
 * through the same disk limit as the web's. A write lands aside and is placed whole at CLOSE.
 * Symlinks are never created. What a session changes is reported as activity, batched.
 */

// ssh2 is CommonJS: its named exports are read off the default one under Node's ESM.
const { Server, utils } = ssh2;
const { OPEN_MODE, STATUS_CODE } = utils.sftp;

/** Who signed in: the panel's answer (`stamp`: opaque to the node, handed back on each recheck). */
export interface SftpGrant {
  server: string;
  user: string;
  permissions: string[];
  stamp: string;
}

export type SftpCredentials = { username: string; ip: string } & (
  | { method: 'password'; password: string }
  /** `checkOnly`: the client asks whether the key would do, before it signs anything (any answer but null is yes). */
  | { method: 'publickey'; fingerprint: string; checkOnly: boolean }
);

export interface SftpOptions {
  files: LocalFiles;
  /** The panel's verdict on a sign-in; null refuses it. */
  authenticate: (credentials: SftpCredentials) => Promise<SftpGrant | null>;
  /** The panel's verdict on an open session: its permissions now, or null to close it. */
  recheck: (grant: SftpGrant) => Promise<string[] | null>;
  report: (event: DaemonEvent) => void;
  log: DaemonLog;
  hostKey: string;
  /** How often every open session is rechecked (a password change, a revocation the node was not told of). */
  recheckMs?: number;
  /** How long a session's activity is gathered into one entry. */
  batchMs?: number;
  /** How long a connection may take to sign in, from its first byte on (default a minute). */
  signInMs?: number;
  /** Connections held at once, signed in or not, in all and per address (default PANEL_SFTP_MAX_CONNECTIONS's). */
  connections?: ConnectionCaps;
}

/** ssh2's fastest ciphers on Node's crypto first (AES-GCM), the rest as ssh2 offers them. */
const CIPHERS = ['aes128-gcm@openssh.com', 'aes256-gcm@openssh.com', 'aes128-ctr', 'aes192-ctr', 'aes256-ctr', 'chacha20-poly1305@openssh.com'];
/** The most one READ returns (clients ask for 32 KiB to 256 KiB). */
const MAX_READ = 256 * 1024;
const DIR_BATCH = 100;
/** Handles one session may hold open (each is a file descriptor, a write's also a file aside): past it OPEN fails. */
export const MAX_HANDLES = 64;
/** Sessions one user may hold open at once, all servers together; one more is closed as it opens. */
export const MAX_SESSIONS_PER_USER = 16;
/**
 * Requests of one session worked on at once (ssh2's and OpenSSH's clients keep 64 under way); the
 * rest wait their turn, so a burst of pipelined requests cannot open a descriptor each at once.
 */
const MAX_IN_FLIGHT = 64;
/** Requests that may wait their turn: a client sending more is not one that waits for answers. */
const MAX_WAITING = 1024;
/** Channels one connection may hold open, as OpenSSH's `MaxSessions`: the handles above are shared by them. */
export const MAX_CHANNELS = 10;

/**
 * A new ed25519 key pair that ssh2 can read back: about one in 250 it makes cannot be parsed
 * (then no server could start with it, or client sign in), so such a one is made again.
 */
export function newKeyPair(): { private: string; public: string } {
  for (;;) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    if (!(utils.parseKey(pair.private) instanceof Error)) return pair;
  }
}

/** The host key kept in the data dir (0600), made on first start: the same key across restarts. */
export async function loadHostKey(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'sftp_host_key');
  const kept = await fs.readFile(file, 'utf8').catch(() => null);
  if (kept !== null && !(utils.parseKey(kept) instanceof Error)) return kept;
  // None yet, or one ssh2 cannot read (never served, so no client knows it): a new one.
  if (kept !== null) await fs.rm(file, { force: true });
  await fs.writeFile(file, newKeyPair().private, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
  return fs.readFile(file, 'utf8');
}

/** SHA-256 fingerprint of a public key blob as the panel stores it (unpadded base64). */
export const keyFingerprint = (blob: Buffer): string => createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');

/**
 * What one user's sessions hold in directory listings, together: listed one at a time, and at
 * most one full listing's worth of entries (`LocalFiles.maxListEntries`) held until read or
 * closed. Each entry held costs about a kilobyte, so a listing per handle would not be bounded.
 */
interface Listings {
  held: number;
  turn: Promise<void>;
}

type DirEntry = { filename: string; longname: string; attrs: Attributes };

type Handle =
  | { kind: 'read'; file: FileHandle; path: string }
  | { kind: 'write'; writer: FileWriter; path: string; created: boolean }
  | { kind: 'dir'; entries: DirEntry[] };

const TYPE_BITS = { dir: 0o040000, link: 0o120000, file: 0o100000 };

function attrsOf(st: Stats): Attributes {
  return { mode: st.mode, uid: st.uid, gid: st.gid, size: st.size, atime: Math.floor(st.atimeMs / 1000), mtime: Math.floor(st.mtimeMs / 1000) };
}

function longname(name: string, attrs: Attributes): string {
  const type = (attrs.mode & 0o170000) === TYPE_BITS.dir ? 'd' : (attrs.mode & 0o170000) === TYPE_BITS.link ? 'l' : '-';
  let bits = '';
  for (let i = 0; i < 9; i += 1) bits += attrs.mode & (1 << (8 - i)) ? 'rwxrwxrwx'[i] : '-';
  const date = new Date(attrs.mtime * 1000).toISOString().slice(0, 10);
  return `${type}${bits} 1 container container ${String(attrs.size).padStart(8)} ${date} ${name}`;
}

/** The status a refusal answers with; the file manager's message goes with it. */
function statusOf(error: unknown): { code: number; message: string } {
  if (error instanceof DaemonError) {
    if (error.kind === 'not_found') return { code: STATUS_CODE.NO_SUCH_FILE, message: 'No such file' };
    if (error.kind === 'no_space' || error.kind === 'too_large') return { code: STATUS_CODE.FAILURE, message: 'Quota exceeded' };
    return { code: STATUS_CODE.FAILURE, message: error.message };
  }
  return { code: STATUS_CODE.FAILURE, message: 'Failure' };
}

class Refused extends Error {
  constructor(readonly code: number) {
    super('refused');
  }
}
const denied = () => new Refused(STATUS_CODE.PERMISSION_DENIED);

/** One signed-in connection: its grant, open handles, and the activity it has yet to report. */
class Session {
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
    private readonly options: SftpOptions,
    private readonly listings: Listings,
  ) {}

  can(permission: string): boolean {
    return this.grant.permissions.includes('*') || this.grant.permissions.includes(permission);
  }

  private need(permission: string): void {
    if (!this.can(permission)) throw denied();
  }

  private record(event: ActivityEvent, file: unknown): void {
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
  private list(dir: string): Promise<DirEntry[]> {
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
  private unlist(handle: Handle & { kind: 'dir' }, count = handle.entries.length): DirEntry[] {
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
  private roomForHandle(): void {
    if (this.handles.size >= MAX_HANDLES) throw new DaemonError('bad_request', 'Too many open handles: close some first.');
  }

  private add(handle: Handle): Buffer {
    if (this.handles.size >= MAX_HANDLES) {
      void this.release(handle);
      this.roomForHandle();
    }
    const id = randomBytes(8);
    this.handles.set(id.toString('hex'), handle);
    return id;
  }

  /** What using a write handle needs, now: a permission dropped since the OPEN stops it. */
  private mayWrite(handle: Handle & { kind: 'write' }): boolean {
    return this.can(handle.created ? 'file.create' : 'file.update');
  }

  private handle(id: Buffer): Handle {
    const handle = this.handles.get(id.toString('hex'));
    if (!handle) throw new Refused(STATUS_CODE.FAILURE);
    return handle;
  }

  /** The volume path of a client's path; relative paths are from the volume root (the session's home). */
  private path(input: string): string {
    return display(resolveBeneath([], input));
  }

  private async exists(file: string): Promise<Stats | null> {
    return this.options.files.stat(this.grant.server, file).catch((error: unknown) => {
      if (error instanceof DaemonError && error.kind === 'not_found') return null;
      throw error;
    });
  }

  /** Runs `work` once fewer than MAX_IN_FLIGHT requests are under way; a finished one hands its place on. */
  private async turn(work: () => Promise<void>): Promise<void> {
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

  /** Wires the subsystem: every request answers once, a failure is a status, never a crash. */
  serve(sftp: SFTPWrapper): void {
    const { files } = this.options;
    const server = this.grant.server;
    const run = (reqId: number, work: () => Promise<void>) => {
      if (this.closed) return;
      this.turn(work).catch((error: unknown) => {
        if (this.closed) return;
        if (error instanceof Refused) return void sftp.status(reqId, error.code);
        if (!(error instanceof DaemonError)) this.options.log('sftp request failed', error);
        const { code, message } = statusOf(error);
        sftp.status(reqId, code, message);
      });
    };
    sftp.on('error', () => this.end());
    // The client is done (EOF): close the channel, as OpenSSH waits for that before it exits.
    sftp.on('end', () => sftp.end());
    sftp.on('OPEN', (reqId, filename, flags) =>
      run(reqId, async () => {
        const file = this.path(filename);
        this.roomForHandle();
        const writing = (flags & (OPEN_MODE.WRITE | OPEN_MODE.APPEND)) !== 0;
        if (!writing) {
          this.need('file.read-content');
          const { handle } = await files.openHandle(server, file);
          if (this.closed) return void handle.close();
          return void sftp.handle(reqId, this.add({ kind: 'read', file: handle, path: file }));
        }
        if (flags & OPEN_MODE.READ) throw new Refused(STATUS_CODE.OP_UNSUPPORTED);
        const current = await this.exists(file);
        if (!current && !(flags & OPEN_MODE.CREAT)) throw new Refused(STATUS_CODE.NO_SUCH_FILE);
        if (current && flags & OPEN_MODE.EXCL) throw new DaemonError('bad_request', 'The file exists already.');
        this.need(current ? 'file.update' : 'file.create');
        const keep = current !== null && !(flags & OPEN_MODE.TRUNC);
        const writer = await files.openWrite(server, file, { maxBytes: Number.MAX_SAFE_INTEGER, keep });
        if (this.closed) return void writer.abort();
        sftp.handle(reqId, this.add({ kind: 'write', writer, path: file, created: current === null }));
      }),
    );
    sftp.on('READ', (reqId, id, offset, length) =>
      run(reqId, async () => {
        const handle = this.handle(id);
        if (handle.kind !== 'read') throw new Refused(STATUS_CODE.FAILURE);
        // Permissions are read again on every use: one dropped since the OPEN applies at once.
        this.need('file.read-content');
        const buffer = Buffer.allocUnsafe(Math.min(length, MAX_READ));
        const { bytesRead } = await handle.file.read(buffer, 0, buffer.length, offset);
        if (bytesRead === 0) return void sftp.status(reqId, STATUS_CODE.EOF);
        sftp.data(reqId, buffer.subarray(0, bytesRead));
      }),
    );
    sftp.on('WRITE', (reqId, id, offset, data) =>
      run(reqId, async () => {
        const handle = this.handle(id);
        if (handle.kind !== 'write') throw new Refused(STATUS_CODE.FAILURE);
        if (!this.mayWrite(handle)) throw denied();
        await handle.writer.write(data, offset);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('CLOSE', (reqId, id) =>
      run(reqId, async () => {
        const handle = this.handle(id);
        this.handles.delete(id.toString('hex'));
        if (handle.kind === 'read') await handle.file.close();
        if (handle.kind === 'dir') this.unlist(handle);
        if (handle.kind === 'write') {
          if (!this.mayWrite(handle)) {
            await handle.writer.abort();
            throw denied();
          }
          await handle.writer.close();
          this.record(handle.created ? 'server:sftp.create' : 'server:sftp.write', handle.path);
        }
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    const stat = (reqId: number, input: string) =>
      run(reqId, async () => {
        this.need('file.read');
        sftp.attrs(reqId, attrsOf(await files.stat(server, this.path(input))));
      });
    // Links are never followed: STAT answers for the link itself, as LSTAT does.
    sftp.on('STAT', stat);
    sftp.on('LSTAT', stat);
    sftp.on('FSTAT', (reqId, id) =>
      run(reqId, async () => {
        const handle = this.handle(id);
        if (handle.kind === 'read') return void sftp.attrs(reqId, attrsOf(await handle.file.stat()));
        throw new Refused(STATUS_CODE.OP_UNSUPPORTED);
      }),
    );
    const setstat = async (file: string, attrs: Attributes) => {
      this.need('file.update');
      if (attrs.size !== undefined) throw new Refused(STATUS_CODE.OP_UNSUPPORTED);
      if (attrs.mode !== undefined) await files.chmod(server, file, attrs.mode);
    };
    sftp.on('SETSTAT', (reqId, input, attrs) =>
      run(reqId, async () => {
        await setstat(this.path(input), attrs);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('FSETSTAT', (reqId, id, attrs) =>
      run(reqId, async () => {
        const handle = this.handle(id);
        // The file being written is placed at CLOSE; its mode is the replaced file's or 0644.
        if (handle.kind === 'write') return void sftp.status(reqId, STATUS_CODE.OK);
        if (handle.kind !== 'read') throw new Refused(STATUS_CODE.OP_UNSUPPORTED);
        await setstat(handle.path, attrs);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('OPENDIR', (reqId, input) =>
      run(reqId, async () => {
        this.need('file.read');
        this.roomForHandle();
        const handle: Handle = { kind: 'dir', entries: await this.list(this.path(input)) };
        if (this.closed) return void this.unlist(handle);
        sftp.handle(reqId, this.add(handle));
      }),
    );
    sftp.on('READDIR', (reqId, id) =>
      run(reqId, async () => {
        const handle = this.handle(id);
        if (handle.kind !== 'dir') throw new Refused(STATUS_CODE.FAILURE);
        this.need('file.read');
        if (handle.entries.length === 0) return void sftp.status(reqId, STATUS_CODE.EOF);
        sftp.name(reqId, this.unlist(handle, DIR_BATCH));
      }),
    );
    sftp.on('REMOVE', (reqId, input) =>
      run(reqId, async () => {
        this.need('file.delete');
        const file = this.path(input);
        const st = await this.exists(file);
        if (!st) throw new Refused(STATUS_CODE.NO_SUCH_FILE);
        if (st.isDirectory()) throw new DaemonError('bad_request', 'The path is a directory.');
        await files.delete(server, '/', [file]);
        this.record('server:sftp.delete', file);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('RMDIR', (reqId, input) =>
      run(reqId, async () => {
        this.need('file.delete');
        const dir = this.path(input);
        if (dir === '/') throw denied();
        const st = await this.exists(dir);
        if (!st) throw new Refused(STATUS_CODE.NO_SUCH_FILE);
        if (!st.isDirectory()) throw new DaemonError('bad_request', 'The path is not a directory.');
        if ((await files.list(server, dir)).length > 0) throw new DaemonError('bad_request', 'The directory is not empty.');
        await files.delete(server, '/', [dir]);
        this.record('server:sftp.delete', dir);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('MKDIR', (reqId, input) =>
      run(reqId, async () => {
        this.need('file.create');
        const dir = this.path(input);
        await files.createDirectory(server, '/', dir);
        this.record('server:sftp.create-directory', dir);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('RENAME', (reqId, fromInput, toInput) =>
      run(reqId, async () => {
        this.need('file.update');
        const from = this.path(fromInput);
        const to = this.path(toInput);
        const moved = await files.rename(server, '/', [{ from, to }]);
        if (moved.length === 0) throw new Refused(STATUS_CODE.NO_SUCH_FILE);
        this.record('server:sftp.rename', { from, to });
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('REALPATH', (reqId, input) =>
      run(reqId, async () => {
        // `cd ..` at the top stays at the top, as on any server's root.
        const resolved = this.path(path.posix.normalize(`/${input}`));
        sftp.name(reqId, [{ filename: resolved, longname: resolved, attrs: {} as Attributes }]);
      }),
    );
    // Links are the tenant's own business inside the volume, never the node's: not read, never made.
    sftp.on('READLINK', (reqId) => sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED));
    sftp.on('SYMLINK', (reqId) => sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED));
    sftp.on('EXTENDED', (reqId) => sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED));
  }
}

/** How long a connection may take to sign in. */
const SIGN_IN_MS = 60_000;
/** Connections one address may hold open before signing in, as OpenSSH's `MaxStartups` begins. */
export const MAX_UNREADY_PER_ADDRESS = 10;
/** The caps when none are given: PANEL_SFTP_MAX_CONNECTIONS and PANEL_SFTP_MAX_PER_IP unset, with a wide open-file limit. */
const DEFAULT_CAPS: ConnectionCaps = { total: 512, perAddress: 32 };

/**
 * Closes a connection without waiting for the client: ssh2's `end()` only half-closes the socket,
 * which a hostile client may keep open forever.
 */
function drop(client: Connection): void {
  const socket = (client as unknown as { _sock?: Socket })._sock;
  if (socket) socket.destroy();
  else client.end();
}

/** The first string of an SSH public key blob: its key type. */
function blobType(blob: Buffer): string {
  const length = blob.length >= 4 ? blob.readUInt32BE(0) : 0;
  return blob.subarray(4, 4 + length).toString('latin1');
}

function verifySignature(ctx: AuthContext & { method: 'publickey' }): boolean {
  if (!ctx.signature || !ctx.blob) return false;
  const key = utils.parseKey(`${blobType(ctx.key.data)} ${ctx.key.data.toString('base64')}`);
  if (key instanceof Error) return false;
  const parsed = Array.isArray(key) ? key[0] : key;
  return parsed?.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true;
}

/** The node's SFTP listener and its open sessions. */
export class SftpServer {
  private readonly sessions = new Set<Session>();
  /** Directory listings held, by user (`Listings`); kept while the user has a session. */
  private readonly listings = new Map<string, Listings>();
  /** Every connection, signed in or not, so closing the server ends them all. */
  private readonly clients = new Set<Connection>();
  /** Sockets not signed in yet, by address; `signedIn` ends a socket's wait. */
  private readonly unready = new Map<string, Set<Socket>>();
  private readonly signedIn = new WeakMap<Socket, () => void>();
  /** Connections by address bucket, signed in or not (all of 127.0.0.0/8 is one: `connectionBucketKey`). */
  private readonly perAddress: AddressCaps;
  private readonly server: SshServer;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: SftpOptions) {
    this.server = new Server({ hostKeys: [options.hostKey], algorithms: { cipher: CIPHERS as never } }, (client, info) =>
      this.accept(client, info.ip),
    );
    this.server.on('error', (error: unknown) => options.log('sftp listener error', error));
    // Watched from the TCP accept on: ssh2 tells of a connection only once its client has sent a
    // version line, and never times one out that sends nothing.
    const listener = (this.server as unknown as { _srv: NetServer })._srv;
    const caps = options.connections ?? DEFAULT_CAPS;
    // Each connection holds a descriptor, and a session up to MAX_HANDLES more (see connection-caps.ts).
    listener.maxConnections = caps.total;
    this.perAddress = new AddressCaps(caps.perAddress);
    listener.on('connection', (socket: Socket) => this.admit(socket));
  }

  /**
   * Refuses a socket whose bucket already holds its share of connections, signed in or not; holds
   * the rest to the sign-in deadline, and refuses one past its address's share of those (an IPv6
   * client's whole /64, as the sign-in throttle counts it).
   */
  private admit(socket: Socket): void {
    if (!this.perAddress.admit(socket)) return void socket.destroy();
    const address = ipBucketKey(socket.remoteAddress ?? '');
    const waiting = this.unready.get(address) ?? new Set<Socket>();
    if (waiting.size >= MAX_UNREADY_PER_ADDRESS) return void socket.destroy();
    waiting.add(socket);
    this.unready.set(address, waiting);
    const timer = setTimeout(() => socket.destroy(), this.options.signInMs ?? SIGN_IN_MS).unref();
    const done = () => {
      clearTimeout(timer);
      waiting.delete(socket);
      if (waiting.size === 0 && this.unready.get(address) === waiting) this.unready.delete(address);
    };
    this.signedIn.set(socket, done);
    socket.once('close', done);
  }

  private accept(client: Connection, ip: string): void {
    let grant: SftpGrant | null = null;
    this.clients.add(client);
    client.on('close', () => this.clients.delete(client));
    // A client that sends garbage is dropped at once; nothing it sends reaches past ssh2's parser as a throw.
    client.on('error', () => drop(client));
    // Signed in: no longer held to the sign-in deadline (`admit`).
    client.on('ready', () => {
      const socket = (client as unknown as { _sock?: Socket })._sock;
      if (socket) this.signedIn.get(socket)?.();
    });
    client.on('authentication', (ctx) => {
      const decide = async (): Promise<boolean> => {
        if (ctx.method === 'password') {
          grant = await this.options.authenticate({ username: ctx.username, ip, method: 'password', password: ctx.password });
          return grant !== null;
        }
        if (ctx.method === 'publickey') {
          const fingerprint = keyFingerprint(ctx.key.data);
          const checkOnly = !ctx.signature;
          if (!checkOnly && !verifySignature(ctx)) return false;
          const answer = await this.options.authenticate({ username: ctx.username, ip, method: 'publickey', fingerprint, checkOnly });
          if (!checkOnly) grant = answer;
          return answer !== null;
        }
        return false;
      };
      decide().then(
        (ok) => (ok ? ctx.accept() : ctx.reject(['password', 'publickey'])),
        (error: unknown) => {
          this.options.log('sftp sign-in failed', error);
          ctx.reject(['password', 'publickey']);
        },
      );
    });
    client.on('ready', () => {
      if (!grant) return void client.end();
      const user = grant.user;
      // Counted here, where sessions are added, so sign-ins racing each other cannot pass the cap.
      if ([...this.sessions].filter((s) => s.grant.user === user).length >= MAX_SESSIONS_PER_USER) return void drop(client);
      const listings = this.listings.get(user) ?? { held: 0, turn: Promise.resolve() };
      this.listings.set(user, listings);
      const session = new Session(grant, ip, client, this.options, listings);
      this.sessions.add(session);
      client.on('close', () => {
        session.end();
        this.sessions.delete(session);
        if (![...this.sessions].some((s) => s.grant.user === user)) this.listings.delete(user);
      });
      let channels = 0;
      client.on('session', (acceptSession, rejectSession) => {
        if (channels >= MAX_CHANNELS) return void rejectSession();
        channels += 1;
        const channel = acceptSession();
        channel.on('close', () => (channels -= 1));
        channel.on('sftp', (acceptSftp) => session.serve(acceptSftp()));
        // Only the sftp subsystem: no shell, no exec, no forwarding.
        channel.on('shell', (_accept, reject) => reject());
        channel.on('exec', (_accept, reject) => reject());
        channel.on('pty', (_accept, reject) => reject?.());
      });
      client.on('tcpip', (_accept, reject) => reject());
    });
  }

  /** Listens on `port` (0: a free one) and returns the port; starts the periodic recheck. */
  async listen(port: number, host: string): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.timer = setInterval(() => void this.recheck(), this.options.recheckMs ?? 1_000);
    this.timer.unref();
    return (this.server.address() as AddressInfo).port;
  }

  /** Asks the panel about each open session (of `server`, or all): one that lost its access is closed at once. */
  async recheck(server?: string): Promise<void> {
    const sessions = [...this.sessions].filter((s) => !server || s.grant.server === server);
    await Promise.all(
      sessions.map(async (session) => {
        const permissions = await this.options.recheck(session.grant).catch((error: unknown) => {
          this.options.log('sftp recheck failed', error);
          return null;
        });
        if (permissions === null) session.end();
        else session.grant.permissions = permissions;
      }),
    );
  }

  /** Closes every session on `server` (it was deleted). */
  endAll(server: string): void {
    for (const session of this.sessions) if (session.grant.server === server) session.end();
  }

  /** Sessions open now (tests). */
  get open(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const session of this.sessions) session.end();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const client of this.clients) drop(client);
    for (const waiting of this.unready.values()) for (const socket of waiting) socket.destroy();
    await closed;
  }
}
