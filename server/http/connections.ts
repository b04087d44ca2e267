import type { ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { declaredLength } from './request-context';

/*
 * What keeps a connection usable whatever a request did with its body, and what cuts off a client
 * that stops talking (slow-loris). A refused request often leaves its body unread (a forged upload
 * link, a write over the disk limit, a body over a cap); left alone, the rest sits in the socket
 * and the next request on that keep-alive connection is never read, or the socket is closed on
 * bytes still arriving, which resets it and can lose the answer before the client reads it.
 */

/** A refused request's body up to this size is read and dropped, and its connection kept. */
const DRAIN_BYTES = 64 * 1024;
/** How long a connection closed on an unread body goes on reading what the client still sends. */
const LINGER_MS = 10_000;

/**
 * The server's timeouts. Bodies get an idle timeout, never a total one: a large upload on a slow
 * line legitimately takes long, a client that sends nothing for that long does not.
 */
export function connectionOptions(config: Config): {
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  http: ServerOptions;
} {
  return {
    connectionTimeout: config.idleTimeoutMs,
    keepAliveTimeout: config.idleTimeoutMs,
    requestTimeout: 0,
    // Node checks the headers timeout on this interval (30 s by default), so a lower timeout needs a shorter one.
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs) },
  };
}

/**
 * Every response to a request whose body is not all read drains it or closes its connection
 * cleanly; the idle timeout cuts off clients, not the panel's own slow work.
 */
export function registerConnectionHandling(app: FastifyInstance): void {
  // Silent for the idle timeout: a request still arriving (slow-loris) or an answer the client
  // stopped reading is cut off; a handler still working on a complete request (a large compress) is not.
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.on('timeout', (socket: Socket) => {
      if (!request.raw.complete || reply.raw.headersSent) socket.destroy();
    });
  });
  app.addHook('onSend', async (request, reply) => {
    const incoming = request.raw;
    if (incoming.complete || incoming.destroyed) return;
    const length = declaredLength(request.headers['content-length']);
    if (length === null || length > DRAIN_BYTES) {
      reply.header('Connection', 'close');
      lingerOnClose(incoming.socket);
    }
    // Whatever still arrives is dropped, so the parser reaches the next request (or the end); a
    // parser the body was piped to (multipart) may wait for a reader that is gone, so it lets go.
    incoming.unpipe();
    incoming.resume();
  });
}

/**
 * Node closes a `Connection: close` socket as soon as the answer is written, resetting it if
 * the client is still sending. Instead: send the FIN once the answer is flushed, keep reading and
 * dropping until the client is done, and give up after LINGER_MS (nginx's lingering close).
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    // A client already gone sends nothing more.
    if (socket.readableEnded) {
      socket.destroy();
      return;
    }
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
  };
}
