import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type * as z from 'zod/mini';
import { DaemonError, type DaemonErrorKind } from '../types';
import { readBounded, tooLargeAnswer } from './bounded';
import { wingsErrorSchema } from './responses';

/*
 * The HTTP transport of the panel's Wings client, with the reference panel's manners
 * (`DaemonRepository::getHttpClient`): `Bearer <token>` (the token alone), JSON, a 5 s connect
 * timeout and 15 s for an answer. node:http rather than fetch: fetch refuses the "bad ports" of
 * browsers (6000, 6665-6669, …) that a daemon may well listen on, offers no connect timeout
 * without the undici package, and cannot send a streamed body with the Content-Length Wings needs.
 */

export interface WingsEndpoint {
  /** The node's name, for messages. */
  name: string;
  /** `scheme://fqdn:port` of the node's daemon. */
  baseUrl: string;
  /** The node's token in the clear (read on each call, so a rotation applies at once). */
  token: () => string;
  connectTimeoutMs?: number;
  timeoutMs?: number;
  /** The largest JSON answer read (a listing of 10,000 entries is some 2.5 MB). */
  maxJsonBytes?: number;
}

export interface WingsRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below the base URL, already encoded; `query` is added to it. */
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  /** A raw body of known length (Wings' files/write needs Content-Length). */
  body?: { stream: Readable; length: number };
  /** How long the answer may take (compress and decompress are synchronous on Wings: 15 minutes). */
  timeoutMs?: number;
  /** This call's meaning of a status, where it differs from the general mapping (compress's 409 is disk space). */
  statusKinds?: Partial<Record<number, DaemonErrorKind>>;
}

export const CONNECT_TIMEOUT_MS = 5_000;
export const REQUEST_TIMEOUT_MS = 15_000;
export const LONG_TIMEOUT_MS = 15 * 60_000;
export const MAX_JSON_BYTES = 32 * 1024 * 1024;
const MAX_ERROR_BYTES = 64 * 1024;

/** Our refusal kind for a Wings error status. */
export function kindOfStatus(status: number, overrides: WingsRequest['statusKinds'] = {}): DaemonErrorKind {
  const override = overrides[status];
  if (override) return override;
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'too_large';
  // 401/403: the node does not take this panel's token; to the user, the node does not answer.
  // A redirect is not followed (the token must not travel to another address): the node is misconfigured.
  if (status < 400 || status === 401 || status === 403 || status >= 500) return 'unavailable';
  return 'bad_request';
}

export class WingsTransport {
  readonly name: string;
  private readonly base: URL;

  constructor(private readonly endpoint: WingsEndpoint) {
    this.name = endpoint.name;
    this.base = new URL(endpoint.baseUrl);
  }

  /**
   * Sends a request and answers its response once Wings has answered 2xx, its body unread; the
   * caller reads or drains it. Any other answer is read (bounded) and thrown as a `DaemonError`.
   * The timeout covers the answer's headers here; the readers below extend it over the body.
   */
  async send(request: WingsRequest, signal?: AbortSignal): Promise<IncomingMessage> {
    const response = await this.exchange(request, signal);
    if (response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300) return response;
    throw await this.refusal(response, request);
  }

  /** A JSON answer parsed with `schema`; an answer Wings would not give is `unavailable`. */
  async json<S extends z.ZodMiniType>(request: WingsRequest, schema: S, signal?: AbortSignal): Promise<z.output<S>> {
    const response = await this.send(request, signal);
    const limit = this.endpoint.maxJsonBytes ?? MAX_JSON_BYTES;
    const body = await this.readBody(response, limit);
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      throw this.malformed();
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw this.malformed();
    return parsed.data;
  }

  /** A call answered with no body worth reading (204, 202): drained, bounded. */
  async empty(request: WingsRequest): Promise<void> {
    const response = await this.send(request);
    await this.readBody(response, MAX_ERROR_BYTES);
  }

  /** The body of an answer, refused past `limit` bytes (declared or counted) as this node's fault. */
  async readBody(response: IncomingMessage, limit: number): Promise<Buffer> {
    try {
      return await readBounded(response, limit);
    } catch (error) {
      if (error === tooLargeAnswer) throw new DaemonError('unavailable', `The node ${this.name} answered more than ${limit} bytes.`);
      throw this.unavailable(error);
    }
  }

  unavailable(error: unknown): DaemonError {
    if (error instanceof DaemonError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new DaemonError('unavailable', `The node ${this.name} did not answer: ${message}`);
  }

  private malformed(): DaemonError {
    return new DaemonError('unavailable', `The node ${this.name} did not answer as Wings does.`);
  }

  private exchange(request: WingsRequest, signal?: AbortSignal): Promise<IncomingMessage> {
    const url = new URL(request.path, this.base);
    for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);
    const json = request.json === undefined ? undefined : Buffer.from(JSON.stringify(request.json));
    const headers: Record<string, string> = { authorization: `Bearer ${this.endpoint.token()}`, accept: 'application/json' };
    if (json) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(json.length) });
    if (request.body) headers['content-length'] = String(request.body.length);
    const timeoutMs = request.timeoutMs ?? this.endpoint.timeoutMs ?? REQUEST_TIMEOUT_MS;
    const connectMs = this.endpoint.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = client.request(url, { method: request.method, headers, signal, agent: false });
      let timer: NodeJS.Timeout | undefined;
      const fail = (error: unknown) => {
        clearTimeout(timer);
        req.destroy();
        reject(this.unavailable(error));
      };
      const awaitAnswer = () => (timer = setTimeout(() => fail(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs));
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        const connectTimer = setTimeout(() => fail(new Error(`no connection within ${connectMs / 1000} s`)), connectMs);
        socket.once('connect', () => clearTimeout(connectTimer));
        socket.once('close', () => clearTimeout(connectTimer));
      });
      req.on('error', fail);
      req.on('response', (response) => {
        clearTimeout(timer);
        // The body's own deadline: a node that stops sending mid-answer fails the read, not hangs it.
        response.setTimeout(timeoutMs, () => response.destroy(new Error(`the answer stalled for ${timeoutMs / 1000} s`)));
        resolve(response);
      });
      if (request.body) {
        // A large body may take longer than the answer may: while it is sent, only a stall fails it.
        req.setTimeout(timeoutMs, () => fail(new Error(`sending stalled for ${timeoutMs / 1000} s`)));
        req.once('finish', awaitAnswer);
        request.body.stream.once('error', fail);
        request.body.stream.pipe(req);
      } else {
        awaitAnswer();
        req.end(json);
      }
    });
  }

  private async refusal(response: IncomingMessage, request: WingsRequest): Promise<DaemonError> {
    const status = response.statusCode ?? 0;
    let said: string | undefined;
    try {
      const parsed = wingsErrorSchema.safeParse(JSON.parse((await readBounded(response, MAX_ERROR_BYTES)).toString('utf8')));
      if (parsed.success) said = parsed.data.error;
    } catch {
      response.destroy();
    }
    // Wings says a full disk in its words (409 on its file routes; 400 from Aerie's node, as the reference's exception).
    const kind = said !== undefined && /not enough disk space/i.test(said) && status < 500 ? 'no_space' : kindOfStatus(status, request.statusKinds);
    if (status === 401 || status === 403) return new DaemonError(kind, `The node ${this.name} refused the panel's token (HTTP ${status}).`);
    const message =
      said && sane(said)
        ? kind === 'unavailable'
          ? `The node ${this.name} did not answer: ${said}`
          : said
        : `The node ${this.name} refused the request (HTTP ${status}).`;
    return new DaemonError(kind, message);
  }
}

/** A message fit to show a user: one line of reasonable length. */
function sane(message: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused.
  return message.length > 0 && message.length <= 500 && !/[\u0000-\u001f\u007f]/.test(message);
}

/** The path of a server's route on Wings: `/api/servers/<uuid><rest>`. */
export function serverPath(server: string, rest = ''): string {
  return `/api/servers/${encodeURIComponent(server)}${rest}`;
}
