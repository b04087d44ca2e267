import type { Server } from 'node:http';

/*
 * Node asks the OS for a socket's peer address only when it is first read, and once the socket is
 * closed it can no longer be asked: `request.ip` of a client that hung up before its request was
 * handled is undefined, and the audit entry of an action that still completed could not be written.
 * Read once when the connection opens, the address is kept with the socket for every request on it.
 */
export function keepPeerAddresses(server: Server): void {
  server.on('connection', (socket: { remoteAddress?: string }) => {
    void socket.remoteAddress;
  });
}
