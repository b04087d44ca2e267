import type { FastifyInstance } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { ConsoleConnection, type ConsoleSocketOptions } from './console-connection';
import { isServerUuid } from './configurations';

/*
 * The console socket, as Wings serves it at `/api/servers/<uuid>/ws`: JSON frames `{event, args}`.
 * The browser sends `auth` with the token the panel signed (`GET …/websocket`) and then asks for
 * logs, stats, commands and power; the node pushes the server's output, state and stats. Every
 * frame is checked against the token on the connection at that moment: its expiry, revocation
 * (a subuser whose rights changed) and the permission the frame needs. A connection whose token
 * lapses gets `jwt error` / `token expired` and is closed if no fresh token follows in time.
 */

export type { ConsoleSocketOptions } from './console-connection';
export { JWT_ERRORS, tokenGrants } from './console-frames';

/** A frame larger than this is no console frame (a command is at most 4 KiB). */
const MAX_FRAME_BYTES = 32 * 1024;
/** Consoles one client address may hold open on one server (a browser has one per open tab). */
const MAX_CONNECTIONS_PER_CLIENT = 20;

/** The live connections of each server, so a revocation or a delete reaches them at once. */
class Connections {
  private readonly byServer = new Map<string, Set<ConsoleConnection>>();

  add(connection: ConsoleConnection): void {
    let set = this.byServer.get(connection.server);
    if (!set) this.byServer.set(connection.server, (set = new Set()));
    set.add(connection);
  }

  remove(connection: ConsoleConnection): void {
    const set = this.byServer.get(connection.server);
    set?.delete(connection);
    if (set?.size === 0) this.byServer.delete(connection.server);
  }

  of(server: string): ConsoleConnection[] {
    return [...(this.byServer.get(server) ?? [])];
  }

  /** Open connections to `server` from one client address. */
  countFrom(server: string, ip: string): number {
    let n = 0;
    for (const connection of this.byServer.get(server) ?? []) if (connection.ip === ip) n++;
    return n;
  }
}

/** Mounts `GET /api/servers/:server/ws` on the panel's server. */
export async function consoleSocketRoutes(app: FastifyInstance, options: ConsoleSocketOptions): Promise<Connections> {
  const connections = new Connections();
  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false } });
  app.get<{ Params: { server: string } }>(
    '/api/servers/:server/ws',
    {
      websocket: true,
      // Refused before the upgrade: a page of another site, or a server this node does not hold.
      preValidation: async (request, reply) => {
        if (request.headers.origin !== options.panelOrigin(request)) {
          return reply.status(403).send({ error: 'The origin of this request is not allowed.' });
        }
        if (!isServerUuid(request.params.server) || !(await options.known(request.params.server))) {
          return reply.status(404).send({ error: 'The requested resource does not exist on this instance.' });
        }
        if (connections.countFrom(request.params.server, request.ip) >= MAX_CONNECTIONS_PER_CLIENT) {
          return reply.status(429).send({ error: 'Too many open consoles for this server from this address.' });
        }
      },
    },
    (socket, request) => {
      const connection = new ConsoleConnection(request.params.server, socket, request.ip, options, () => connections.remove(connection));
      connections.add(connection);
    },
  );
  return connections;
}

export type { Connections as ConsoleConnections };
