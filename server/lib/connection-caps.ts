import type { Server, Socket } from 'node:net';
import type { ConnectionCaps } from '../config';
import { ipBucketKey } from './ip-bucket';

/*
 * Every open connection holds a descriptor. A tenant's program runs on this machine and can open
 * connections from any of 127.0.0.0/8 (2,000 addresses were enough): without caps it used up the
 * panel's descriptors, and every other user's API, file and SFTP requests failed. So a listener
 * holds at most `total` connections, and one client at most `perAddress`. A connection over a
 * cap is destroyed at once, before anything is read from it: it costs nothing, and a 503 written
 * to a client whose request is still unread would be lost to the reset the close causes anyway.
 */

/**
 * One client's bucket: an IPv6 /64 or one IPv4 address (`ipBucketKey`), except that all of
 * 127.0.0.0/8 is one, since whoever can use one loopback address can use them all. IPv4 buckets
 * are single addresses, not /24s: many users behind one NAT already share one.
 */
export function connectionBucketKey(ip: string): string {
  const key = ipBucketKey(ip);
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(key) ? '127.0.0.0/8' : key;
}

/** Counts open connections by bucket; a socket counts until it closes. */
export class AddressCaps {
  private readonly open = new Map<string, number>();

  /** `perAddress`: 0 counts nothing and admits every connection. */
  constructor(private readonly perAddress: number) {}

  /** Counts the socket and says yes, or says no when its bucket is full (the caller destroys it). */
  admit(socket: Socket): boolean {
    if (this.perAddress === 0) return true;
    // A socket already gone has no address to ask about; it is refused like one over its cap.
    const address = socket.remoteAddress;
    if (address === undefined) return false;
    const key = connectionBucketKey(address);
    const held = this.open.get(key) ?? 0;
    if (held >= this.perAddress) return false;
    this.open.set(key, held + 1);
    socket.once('close', () => {
      const left = (this.open.get(key) ?? 1) - 1;
      if (left > 0) this.open.set(key, left);
      else this.open.delete(key);
    });
    return true;
  }
}

/**
 * Caps a listener's connections: Node's own `maxConnections` closes a connection over the total
 * before it is handed on; the per-address count runs on every connection it accepts.
 */
export function capConnections(server: Server, caps: ConnectionCaps): void {
  server.maxConnections = caps.total;
  const perAddress = new AddressCaps(caps.perAddress);
  server.on('connection', (socket: Socket) => {
    if (!perAddress.admit(socket)) socket.destroy();
  });
}
