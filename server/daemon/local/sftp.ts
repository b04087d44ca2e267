import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import ssh2, { type Connection, type Server as SshServer } from 'ssh2';
import { ipBucketKey } from '../../lib/ip-bucket';
import { AddressCaps } from '../../lib/connection-caps';
import type { ConnectionCaps } from '../../config';
import { keyFingerprint, verifySignature } from './sftp-keys';
import type { SftpGrant, SftpOptions } from './sftp-options';
import { serveSftp } from './sftp-requests';
import { drop, Session, type Listings } from './sftp-session';

/*
 * The node's SFTP server (Wings' `sftp/`): ssh2's server, the panel deciding who may sign in
 * (Wings asks `POST /api/remote/sftp/auth`), and every operation done by the file manager
 * (`files.ts`, from `sftp-requests.ts`), so paths go through the same handle-checked, no-follow
 * resolution and writes through the same disk limit as the web's. A write lands aside and is placed whole at CLOSE.
 * Symlinks are never created. What a session changes is reported as activity, batched.
 */

export { keyFingerprint, loadHostKey, newKeyPair } from './sftp-keys';
export type { SftpCredentials, SftpGrant, SftpOptions } from './sftp-options';
export { MAX_HANDLES } from './sftp-session';

// ssh2 is CommonJS: its named exports are read off the default one under Node's ESM.
const { Server } = ssh2;

/** ssh2's fastest ciphers on Node's crypto first (AES-GCM), the rest as ssh2 offers them. */
const CIPHERS = ['aes128-gcm@openssh.com', 'aes256-gcm@openssh.com', 'aes128-ctr', 'aes192-ctr', 'aes256-ctr', 'chacha20-poly1305@openssh.com'];
/** Sessions one user may hold open at once, all servers together; one more is closed as it opens. */
export const MAX_SESSIONS_PER_USER = 16;
/** Channels one connection may hold open, as OpenSSH's `MaxSessions`: a session's MAX_HANDLES are shared by them. */
export const MAX_CHANNELS = 10;
/** How long a connection may take to sign in. */
const SIGN_IN_MS = 60_000;
/** Connections one address may hold open before signing in, as OpenSSH's `MaxStartups` begins. */
export const MAX_UNREADY_PER_ADDRESS = 10;
/** The caps when none are given: PANEL_SFTP_MAX_CONNECTIONS and PANEL_SFTP_MAX_PER_IP unset, with a wide open-file limit. */
const DEFAULT_CAPS: ConnectionCaps = { total: 512, perAddress: 32 };

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
          const publicKey = `${ctx.key.algo} ${ctx.key.data.toString('base64')}`;
          const answer = await this.options.authenticate({ username: ctx.username, ip, method: 'publickey', fingerprint, publicKey, checkOnly });
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
        channel.on('sftp', (acceptSftp) => serveSftp(session, acceptSftp()));
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
