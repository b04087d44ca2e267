import { PROCESS_STATES, SOCKET_EVENTS, socketMessageSchema, socketStatsSchema, type ProcessState, type SocketStats } from '../../contract/websocket';

/*
 * The Wings websocket protocol, without React: one connection per open server page. It fetches a
 * token, authenticates, re-authenticates on the same socket when the token is about to expire,
 * and reconnects with back-off (fresh token each time) when the socket closes. Frames that do not
 * parse, and events it does not know, are ignored.
 */

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'error';

/** What the terminal prints: a line of the server's output, a note from the panel, or a clear before a replay. */
/** `install`: a line of the server's install script, which the terminal sets apart from the server's own output. */
export type OutputEvent = { kind: 'output'; line: string } | { kind: 'install'; line: string } | { kind: 'daemon'; line: string } | { kind: 'clear' };

export interface SocketToken {
  token: string;
  socket: string;
}

/** Thrown by `fetchToken` when the user may no longer open the socket (GET websocket answers 403). */
export class SocketAccessLost extends Error {}

/** The slice of the browser's WebSocket the client uses, so tests can hand in a fake. */
export interface SocketLike {
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
  onerror: (() => void) | null;
  send(data: string): void;
  close(): void;
}

export interface ConsoleSocketOptions {
  fetchToken: () => Promise<SocketToken>;
  open?: (url: string) => SocketLike;
  /** Delay before reconnect attempt `n` (0-based). */
  backoff?: (attempt: number) => number;
  /** Ask for the server's recent output once connected (the console does; a page that only listens for events does not). */
  history?: boolean;
}

export interface ConsoleSocketSnapshot {
  connection: ConnectionState;
  /** Why the connection is in `error` (or why it is reconnecting). */
  error: SocketError | null;
  status: ProcessState | null;
  stats: SocketStats | null;
  /** The last `HISTORY_POINTS` stats, oldest first, for the charts; emptied when the server goes offline. */
  history: readonly SocketStats[];
}

export const HISTORY_POINTS = 60;

/**
 * Why the connection failed: one of the client's own reasons, which the page words in the user's
 * language, or the message of a token request that failed.
 */
export type SocketError = { reason: 'bad-credentials' | 'access-lost' | 'connection-lost' } | { message: string };

/** A token the node refuses for any other reason (the page uses the reference panel's wording). */
export const BAD_CREDENTIALS: SocketError = { reason: 'bad-credentials' };
export const ACCESS_LOST: SocketError = { reason: 'access-lost' };
const CONNECTION_LOST: SocketError = { reason: 'connection-lost' };

const failure = (err: unknown): SocketError => ({ message: err instanceof Error ? err.message : String(err) });

/** The jwt errors that a fresh token fixes (the token ran out, or the user's rights changed). */
const RENEWABLE_JWT_ERRORS = new Set(['jwt: exp claim is invalid', 'jwt: created too far in past (denylist)']);

/** 1 s, 2 s, 4 s … at most 30 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** attempt);
}

/** Relative socket URLs resolve against the page (the local node is the panel's own origin). */
function socketUrl(url: string): string {
  if (typeof location === 'undefined') return url;
  const resolved = new URL(url, location.href);
  if (resolved.protocol === 'http:') resolved.protocol = 'ws:';
  if (resolved.protocol === 'https:') resolved.protocol = 'wss:';
  return resolved.toString();
}

export class ConsoleSocket {
  private snapshot: ConsoleSocketSnapshot = { connection: 'connecting', error: null, status: null, stats: null, history: [] };
  private readonly stateListeners = new Set<() => void>();
  private readonly outputListeners = new Set<(e: OutputEvent) => void>();
  private readonly eventListeners = new Set<(event: string, args: readonly string[]) => void>();
  private socket: SocketLike | null = null;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = true;
  /** Bumped by start and stop, so a token that arrives after a stop (or a restart) opens nothing. */
  private generation = 0;
  /** Whether the current socket has authenticated once (the first `auth success` asks for the history). */
  private authed = false;
  private readonly open: (url: string) => SocketLike;
  private readonly backoff: (attempt: number) => number;

  constructor(private readonly options: ConsoleSocketOptions) {
    this.open = options.open ?? ((url) => new WebSocket(url) as unknown as SocketLike);
    this.backoff = options.backoff ?? reconnectDelay;
  }

  getSnapshot = (): ConsoleSocketSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  onOutput(listener: (e: OutputEvent) => void): () => void {
    this.outputListeners.add(listener);
    return () => this.outputListeners.delete(listener);
  }

  /** Every frame the node sends, by event name and arguments (`backup completed:<uuid>`, …), after the client's own handling. */
  onEvent(listener: (event: string, args: readonly string[]) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.generation += 1;
    this.attempt = 0;
    this.set({ connection: 'connecting', error: null });
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.generation += 1;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.drop();
  }

  /** Sends a frame when authenticated; returns whether it went out. */
  send(event: 'send command' | 'set state' | 'send logs' | 'send stats', arg?: string): boolean {
    if (!this.socket || this.snapshot.connection !== 'connected') return false;
    this.socket.send(JSON.stringify({ event, args: arg === undefined ? [null] : [arg] }));
    return true;
  }

  private set(patch: Partial<ConsoleSocketSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.stateListeners) l();
  }

  private emit(e: OutputEvent): void {
    for (const l of this.outputListeners) l(e);
  }

  private drop(): void {
    const s = this.socket;
    this.socket = null;
    if (!s) return;
    s.onopen = s.onmessage = s.onclose = s.onerror = null;
    s.close();
  }

  private async connect(): Promise<void> {
    const generation = this.generation;
    let token: SocketToken;
    try {
      token = await this.options.fetchToken();
    } catch (err) {
      if (generation !== this.generation) return;
      if (err instanceof SocketAccessLost) return this.fail(ACCESS_LOST);
      return this.retry(failure(err));
    }
    if (generation !== this.generation) return;
    const socket = this.open(socketUrl(token.socket));
    this.socket = socket;
    this.authed = false;
    socket.onopen = () => socket.send(JSON.stringify({ event: 'auth', args: [token.token] }));
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => undefined;
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (!this.stopped && this.snapshot.connection !== 'error') this.retry(CONNECTION_LOST);
    };
  }

  private retry(reason: SocketError): void {
    if (this.stopped) return;
    this.drop();
    this.set({ connection: 'reconnecting', error: reason });
    const delay = this.backoff(this.attempt);
    this.attempt += 1;
    const generation = this.generation;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (generation === this.generation) void this.connect();
    }, delay);
  }

  private fail(reason: SocketError): void {
    this.drop();
    this.set({ connection: 'error', error: reason, stats: null });
  }

  /** A fresh token on the same socket (expiry, or rights that changed). */
  private async reauth(): Promise<void> {
    const socket = this.socket;
    try {
      const token = await this.options.fetchToken();
      if (socket && this.socket === socket) socket.send(JSON.stringify({ event: 'auth', args: [token.token] }));
    } catch (err) {
      if (this.stopped || this.socket !== socket) return;
      if (err instanceof SocketAccessLost) this.fail(ACCESS_LOST);
      else this.retry(failure(err));
    }
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    const parsed = socketMessageSchema.safeParse(json);
    if (!parsed.success) return;
    const { event, args = [] } = parsed.data;
    this.handle(event, args);
    for (const l of this.eventListeners) l(event, args);
  }

  private handle(event: string, args: readonly string[]): void {
    const arg = args[0];
    switch (event) {
      case SOCKET_EVENTS.authSuccess:
        this.attempt = 0;
        if (!this.authed) {
          this.authed = true;
          this.set({ connection: 'connected', error: null });
          if (this.options.history !== false) {
            // A fresh connection replays the history: clear first so no line shows twice.
            this.emit({ kind: 'clear' });
            this.send('send logs');
          }
        }
        return;
      case SOCKET_EVENTS.tokenExpiring:
      case SOCKET_EVENTS.tokenExpired:
        void this.reauth();
        return;
      case SOCKET_EVENTS.jwtError:
        if (arg !== undefined && RENEWABLE_JWT_ERRORS.has(arg)) void this.reauth();
        else this.fail(BAD_CREDENTIALS);
        return;
      case SOCKET_EVENTS.status:
        if (arg !== undefined && (PROCESS_STATES as readonly string[]).includes(arg)) {
          const status = arg as ProcessState;
          this.set(status === 'offline' ? { status, stats: null, history: [] } : { status });
        }
        return;
      case SOCKET_EVENTS.stats:
        if (arg !== undefined) this.receiveStats(arg);
        return;
      case SOCKET_EVENTS.consoleOutput:
        if (arg !== undefined) this.emit({ kind: 'output', line: arg });
        return;
      case SOCKET_EVENTS.installOutput:
        if (arg !== undefined) this.emit({ kind: 'install', line: arg });
        return;
      // A transfer's lines (sent to admins only) show as the node's own, as the reference console prints them.
      case SOCKET_EVENTS.daemonMessage:
      case SOCKET_EVENTS.daemonError:
      case SOCKET_EVENTS.transferLogs:
        if (arg !== undefined) this.emit({ kind: 'daemon', line: arg });
        return;
      default:
        return;
    }
  }

  private receiveStats(arg: string): void {
    let json: unknown;
    try {
      json = JSON.parse(arg);
    } catch {
      return;
    }
    const stats = socketStatsSchema.safeParse(json);
    if (!stats.success) return;
    const history = [...this.snapshot.history.slice(1 - HISTORY_POINTS), stats.data];
    this.set({ stats: stats.data, status: stats.data.state, history: stats.data.state === 'offline' ? [] : history });
  }
}
