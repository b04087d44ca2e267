import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/*
 * Raw HTTP/1.1 over a real socket, for defects that live in the connection (keep-alive, a body
 * left unread, slow clients), which `inject` never sees.
 */

/** Listens on a free loopback port (`::` takes ::1 and 127.0.0.0/8 both); the fixture's `close()` stops it. */
export async function listen(app: FastifyInstance, host = '127.0.0.1'): Promise<number> {
  await app.listen({ port: 0, host });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the panel is not listening on a TCP port');
  return address.port;
}

/**
 * The panel gone from the network for a while, as a restart looks from a node: its listener closed
 * and every open connection cut. The returned `back` listens again on the same address and port
 * (the database, and what the app holds, are the same).
 */
export async function stopListening(app: FastifyInstance): Promise<{ back: () => Promise<void> }> {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the panel is not listening on a TCP port');
  const closed = new Promise<void>((resolve) => app.server.close(() => resolve()));
  app.server.closeAllConnections();
  await closed;
  return {
    back: () => new Promise<void>((resolve, reject) => app.server.once('error', reject).listen(address.port, address.address, () => resolve())),
  };
}

/** The head of a request; `content-length` is the body's unless given (to announce more than is sent). */
export function requestHead(method: string, url: string, headers: Record<string, string>, body: string | Buffer = ''): string {
  const all = { host: 'localhost', 'content-length': String(Buffer.byteLength(body)), ...headers };
  return `${method} ${url} HTTP/1.1\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
}

export function rawRequest(method: string, url: string, headers: Record<string, string>, body: string | Buffer = ''): Buffer {
  return Buffer.concat([Buffer.from(requestHead(method, url, headers, body)), Buffer.from(body)]);
}

const BOUNDARY = 'aerieRawBoundary';

/** A multipart/form-data body holding one file, as a browser uploads it. */
export function multipartFile(name: string, content: Buffer): { body: Buffer; contentType: string } {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One keep-alive connection: write bytes, read responses in order, see how it ended. */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  /** How the server ended the connection: 'end' (a clean FIN) or the socket error's code. */
  ended: 'end' | string | null = null;
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('end', () => {
      this.ended ??= 'end';
      this.wake();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.ended ??= error.code ?? 'error';
      this.wake();
    });
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
  }

  /** `localAddress`: the client's own address (any of 127.0.0.0/8 on loopback; ::1 with host `::1`). */
  static open(port: number, from: { host?: string; localAddress?: string } = {}): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: from.host ?? '127.0.0.1', localAddress: from.localAddress }, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(data, (error) => (error ? reject(error) : resolve())));
  }

  /** Sends the head of a request for `body` and only its first `sent` bytes; returns the rest. */
  async sendPart(method: string, url: string, headers: Record<string, string>, body: Buffer, sent: number): Promise<Buffer> {
    await this.write(requestHead(method, url, headers, body));
    await this.write(body.subarray(0, sent));
    return body.subarray(sent);
  }

  /** The next complete response (Content-Length bodies only), or an error after `timeoutMs`. */
  async response(timeoutMs = 5000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.take();
      if (parsed) return parsed;
      if (this.ended) throw new Error(`the connection ended (${this.ended}) before a complete response`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no response in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves once the server ended the connection, with how; rejects after `timeoutMs`. */
  async end(timeoutMs = 5000): Promise<string> {
    const timer = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the connection is still open')), timeoutMs).unref());
    await Promise.race([this.closed, timer]);
    return this.ended ?? 'close';
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  private take(): RawResponse | null {
    const headEnd = this.buffer.indexOf('\r\n\r\n');
    if (headEnd < 0) return null;
    const [statusLine = '', ...lines] = this.buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < headEnd + 4 + length) return null;
    const body = this.buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(headEnd + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }
}
