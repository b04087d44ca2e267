import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { isPowerSignal, POWER_PERMISSIONS, SOCKET_EVENTS } from '../../../src/contract';
import { socketRequestSchema, type SocketRequest } from '../../../src/contract/socket-requests';
import type { DaemonEvent } from '../capabilities';
import { checkToken, socketTokenSchema, type SocketToken } from '../tokens';
import { DaemonError } from '../types';
import { frameOf, JWT_ERRORS, receivePermission, tokenGrants } from './console-frames';
import type { DaemonLog } from './events';
import type { InstallReplay } from './install-log';
import type { LocalProcesses } from './processes';
import type { TokenDenylist } from './socket-tokens';

/* One console socket: its token as it stands now, the frames it sends and the server's events it receives. */

export interface ConsoleSocketOptions {
  processes: LocalProcesses;
  tokens: TokenDenylist;
  /** The node's signing key; undefined while the panel has none (no token can be valid then). */
  key: () => Promise<string | undefined>;
  now: () => Date;
  /** Where the node reports what a user did (power and commands, for the audit log). */
  report: (event: DaemonEvent) => void;
  /** True when the node holds this server (it has a configuration for it). */
  known: (server: string) => Promise<boolean>;
  /** The panel's origin for this request: only pages of the panel may open the socket (Wings: `PanelLocation`). */
  panelOrigin: (request: FastifyRequest) => string;
  log: DaemonLog;
  /** The last install's output, replayed after the logs to a token that may see installs; none by default. */
  installReplay?: (server: string) => InstallReplay | null;
  /** Lines `send logs` replays. */
  logLines?: number;
  /** How often the token's expiry is looked at (Wings: 30 s). */
  expiryCheckMs?: number;
  /** How long a connection without a valid token stays open for a fresh one. */
  reauthGraceMs?: number;
}

const GENERIC_ERROR = 'an unexpected error was encountered while handling this request';
/** Output waiting for a slow client past this is dropped (and the client told), so it cannot grow the panel's memory. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const PING_MS = 30_000;
/** Frames a connection may send in one second (someone typing sends a few); past it, it is closed (1008). */
const MAX_FRAMES_PER_SECOND = 50;
/** A log replay counts as this many frames: two a second at most. */
const LOG_REPLAY_COST = 24;

export class ConsoleConnection {
  private token: SocketToken | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private grace: NodeJS.Timeout | null = null;
  /** Frames are handled one after another, so commands reach the server in the order typed. */
  private queue: Promise<void> = Promise.resolve();
  private dropped = 0;
  private alive = true;
  /** The client has heard that its token no longer holds (said once, not for every frame). */
  private toldInvalid = false;
  private rate = { second: 0, frames: 0 };

  constructor(
    readonly server: string,
    private readonly socket: WebSocket,
    readonly ip: string,
    private readonly options: ConsoleSocketOptions,
    private readonly onClose: () => void,
  ) {
    socket.on('message', (data, isBinary) => {
      if (this.flooding()) return socket.close(1008, 'too many messages');
      if (isBinary) return;
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : data.toString();
      this.queue = this.queue
        .then(() => this.receive(text))
        .catch((error: unknown) => {
          options.log(`a console frame for ${server} failed`, error);
          this.sendError(GENERIC_ERROR);
        });
    });
    socket.on('pong', () => (this.alive = true));
    socket.on('close', () => this.closed());
    socket.on('error', () => socket.terminate());
    // A client that vanished without a close frame is found by the ping it does not answer.
    this.timers.push(
      setInterval(() => {
        if (!this.alive) return socket.terminate();
        this.alive = false;
        socket.ping();
      }, PING_MS),
    );
    // Unauthenticated, a connection only waits so long for its token.
    this.expectToken();
  }

  /**
   * Counts a frame (at `cost` frames: a replay of the logs answers with many) against the second it
   * arrived in; true past the rate a console needs.
   */
  private flooding(cost = 1): boolean {
    const second = Math.floor(performance.now() / 1000);
    if (second !== this.rate.second) this.rate = { second, frames: 0 };
    this.rate.frames += cost;
    return this.rate.frames > MAX_FRAMES_PER_SECOND;
  }

  /** The token's grant, as it stands now: a token revoked since it was presented grants nothing. */
  private validity(): keyof typeof JWT_ERRORS | null {
    const token = this.token;
    if (!token) return 'notPresent';
    if (token.exp * 1000 <= this.options.now().getTime()) return 'expired';
    if (this.options.tokens.isDenied(this.server, token.jti, new Date(token.iat * 1000))) return 'denylisted';
    return null;
  }

  private can(permission: string): boolean {
    return this.validity() === null && tokenGrants(this.token?.permissions ?? [], permission);
  }

  private async receive(text: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return; // Wings drops what is not JSON and keeps the connection
    }
    const parsed = socketRequestSchema.safeParse(json);
    if (!parsed.success) return;
    const request: SocketRequest = parsed.data;
    if (request.event === 'auth') return this.authenticate(request.args[0]);
    const invalid = this.validity();
    if (invalid) return this.send({ event: SOCKET_EVENTS.jwtError, args: [JWT_ERRORS[invalid]] });
    const { processes } = this.options;
    switch (request.event) {
      case 'send logs':
        if (this.flooding(LOG_REPLAY_COST)) return this.socket.close(1008, 'too many messages');
        for (const line of await processes.history(this.server, this.options.logLines ?? 150)) {
          this.send({ event: SOCKET_EVENTS.consoleOutput, args: [line] });
        }
        return this.replayInstall();
      case 'send stats':
        return this.send({ event: SOCKET_EVENTS.stats, args: [JSON.stringify(await processes.resources(this.server))] });
      case 'send command': {
        const line = request.args[0];
        // Wings ignores a command without the permission, or for a server that is not running.
        if (!this.can('control.console') || processes.state(this.server) === 'offline' || line.length > 4096) return;
        await processes.command(this.server, line).catch(() => undefined);
        return this.report('server:console.command', { command: line });
      }
      case 'set state': {
        const signal = request.args[0];
        if (!isPowerSignal(signal) || !this.can(POWER_PERMISSIONS[signal])) return;
        try {
          await processes.power(this.server, signal);
        } catch (error) {
          // A daemon refusal is written for users (another action runs, bubblewrap is missing, the server is suspended).
          if (error instanceof DaemonError) return this.sendError(error.message);
          throw error;
        }
        return this.report(`server:power.${signal}`, {});
      }
    }
  }

  /**
   * After the logs, the output of an install that runs or failed, to whoever receives installs
   * live (Wings' `admin.websocket.install`): set apart by the node's own heading, which the
   * script's output cannot imitate (it arrives as `install output`, never as a daemon message).
   */
  private replayInstall(): void {
    if (!this.can('admin.websocket.install')) return;
    const replay = this.options.installReplay?.(this.server);
    if (!replay) return;
    this.send({ event: SOCKET_EVENTS.daemonMessage, args: [replay.heading] });
    for (const line of replay.lines) this.send({ event: SOCKET_EVENTS.installOutput, args: [line] });
    if (replay.footer) this.send({ event: SOCKET_EVENTS.daemonMessage, args: [replay.footer] });
  }

  private async authenticate(raw: string): Promise<void> {
    const key = await this.options.key();
    const checked = key ? await checkToken(raw, key, socketTokenSchema, this.options.now()) : { ok: false as const, expired: false };
    let refusal: string | null = null;
    if (!checked.ok) refusal = checked.expired ? JWT_ERRORS.expired : null;
    else if (checked.payload.server_uuid !== this.server) refusal = JWT_ERRORS.uuidMismatch;
    else if (this.options.tokens.isDenied(this.server, checked.payload.jti, new Date(checked.payload.iat * 1000))) refusal = JWT_ERRORS.denylisted;
    else if (!tokenGrants(checked.payload.permissions, 'websocket.connect')) refusal = JWT_ERRORS.noConnect;
    if (!checked.ok || refusal) {
      // The token the connection already had, if any, stays in force. A genuine token that has
      // lapsed hears why and may be followed by a fresh one on this connection; a forged or
      // malformed one learns nothing (Wings: a generic error) and ends an unauthenticated connection.
      if (refusal) this.send({ event: SOCKET_EVENTS.jwtError, args: [refusal] });
      else {
        this.sendError(GENERIC_ERROR);
        if (!this.token) this.socket.close(4001, 'authentication failed');
      }
      return;
    }
    const first = this.token === null;
    this.token = checked.payload;
    this.toldInvalid = false;
    if (this.grace) clearTimeout(this.grace);
    this.grace = null;
    this.send({ event: SOCKET_EVENTS.authSuccess });
    if (!first) return; // a refreshed token: no second status (reference panel issue 2077)
    this.unsubscribe = this.options.processes.subscribe(this.server, (event) => this.push(frameOf(event)));
    this.timers.push(setInterval(() => this.checkExpiry(), this.options.expiryCheckMs ?? 30_000));
    const state = this.options.processes.state(this.server);
    this.send({ event: SOCKET_EVENTS.status, args: [state] });
    if (state === 'offline') this.send({ event: SOCKET_EVENTS.stats, args: [JSON.stringify(await this.options.processes.resources(this.server))] });
  }

  /** A server event for this connection, if its token still allows it. */
  private push(frame: { event: string; args: string[] }): void {
    if (this.validity()) return this.recheck();
    const needs = receivePermission(frame.event);
    if (needs && !tokenGrants(this.token?.permissions ?? [], needs)) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES && frame.event === SOCKET_EVENTS.consoleOutput) {
      this.dropped++;
      return;
    }
    if (this.dropped > 0) {
      const skipped = this.dropped;
      this.dropped = 0;
      this.send({
        event: SOCKET_EVENTS.daemonMessage,
        args: [`${skipped} lines of output were skipped: the server wrote faster than this connection could receive.`],
      });
    }
    this.send(frame);
  }

  /** Wings: `token expiring` within a minute of the end, `token expired` after it. */
  private checkExpiry(): void {
    const token = this.token;
    if (!token) return;
    const left = token.exp * 1000 - this.options.now().getTime();
    if (left <= 0) {
      this.send({ event: SOCKET_EVENTS.tokenExpired });
      this.expectToken();
    } else if (left <= 60_000) this.send({ event: SOCKET_EVENTS.tokenExpiring });
  }

  /** Called when the token may have been revoked: a connection left without a valid token hears so, and must re-authenticate. */
  recheck(): void {
    const invalid = this.validity();
    if (!invalid || this.toldInvalid) return;
    this.toldInvalid = true;
    this.send({ event: SOCKET_EVENTS.jwtError, args: [JWT_ERRORS[invalid]] });
    this.expectToken();
  }

  /** Closes the connection unless a valid token arrives within the grace period. */
  private expectToken(): void {
    if (this.grace) return;
    this.grace = setTimeout(() => {
      this.grace = null;
      if (this.validity()) this.socket.close(4004, 'no valid token');
    }, this.options.reauthGraceMs ?? 30_000);
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  private report(
    event: `server:power.${'start' | 'stop' | 'restart' | 'kill'}` | 'server:console.command',
    properties: Record<string, unknown>,
  ): void {
    if (!this.token) return;
    this.options.report({ type: 'activity', server: this.server, user: this.token.user_uuid, ip: this.ip, event, properties });
  }

  /** Wings' error frame; what failed unexpectedly is logged on the node, never sent. */
  private sendError(detail: string): void {
    this.send({ event: SOCKET_EVENTS.daemonError, args: [`Error Event [${randomUUID()}]: ${detail}`] });
  }

  private send(frame: { event: string; args?: string[] }): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  private closed(): void {
    for (const timer of this.timers) clearInterval(timer);
    if (this.grace) clearTimeout(this.grace);
    this.unsubscribe?.();
    this.onClose();
  }
}
