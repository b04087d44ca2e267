import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import * as z from 'zod/mini';
import type { NodeDaemon, ServerCapability } from '../daemon/capabilities';
import { DaemonError, type DaemonErrorKind } from '../daemon/types';

/*
 * The admin CLI runs in a process of its own, but the servers of the local node run inside the
 * panel's: a server the CLI deletes must be stopped by the panel, a configuration it changes must
 * reach the daemon that holds it, and console tokens it revokes live in the panel's memory. So the
 * panel listens on a Unix socket in its data dir (owner-only, like the data dir itself), and the
 * CLI hands exactly those node calls to it. No panel answering: the CLI's own daemon does them,
 * which is right then, as nothing runs.
 */

export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, 'panel.sock');
}

type Action = 'delete' | 'sync' | 'revoke' | 'transfer';
const ROUTE = /^\/servers\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/(delete|sync|revoke|transfer)$/;
const revokeBody = z.object({ jtis: z.array(z.string()).check(z.maxLength(1000)) });
const transferBody = z.object({ url: z.string().check(z.maxLength(2048)), token: z.string().check(z.maxLength(8192)) });
const errorBody = z.object({
  kind: z.enum(['not_found', 'bad_request', 'too_large', 'no_space', 'conflict', 'offline', 'unavailable']),
  message: z.string(),
});
const MAX_BODY = 64 * 1024;

async function perform(daemon: NodeDaemon, server: string, action: Action, body: unknown): Promise<void> {
  if (action === 'delete') return daemon.servers.delete(server);
  // The node reads it afresh from the panel's database, which the CLI has written.
  if (action === 'sync') return daemon.servers.sync(server);
  // A transfer stops and sends a server the panel runs: the panel's daemon must do it.
  if (action === 'transfer') {
    const target = transferBody.safeParse(body);
    if (!target.success || !daemon.transfers)
      throw new DaemonError('bad_request', 'The body must be {"url", "token"} for a node that sends transfers.');
    return daemon.transfers.send(server, target.data);
  }
  const parsed = revokeBody.safeParse(body);
  if (!parsed.success) throw new DaemonError('bad_request', 'The body must be {"jtis": [...]}.');
  return daemon.servers.revokeSocketTokens(server, parsed.data.jtis);
}

function reply(res: http.ServerResponse, status: number, body?: { kind: DaemonErrorKind; message: string }): void {
  res.writeHead(status, body ? { 'content-type': 'application/json' } : {});
  res.end(body ? JSON.stringify(body) : undefined);
}

/** Whether something answers on the socket (a panel already serving this data dir). */
function answering(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Listens for the CLI's node calls; returns the function that stops listening. */
export async function listenForCli(socketPath: string, daemon: NodeDaemon): Promise<() => Promise<void>> {
  if (await answering(socketPath)) throw new Error(`another panel answers on ${socketPath}`);
  // What a panel that did not shut down left behind.
  fs.rmSync(socketPath, { force: true });
  const server = http.createServer((req, res) => {
    const match = ROUTE.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) return reply(res, 404, { kind: 'not_found', message: 'No such control route.' });
    const [, uuid = '', action = 'delete'] = match;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      let body: unknown = {};
      try {
        if (size > 0) body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reply(res, 400, { kind: 'bad_request', message: 'The body is not JSON.' });
      }
      perform(daemon, uuid, action as Action, body).then(
        () => reply(res, 204),
        (error: unknown) => {
          if (error instanceof DaemonError) reply(res, 409, { kind: error.kind, message: error.message });
          else reply(res, 500, { kind: 'unavailable', message: error instanceof Error ? error.message : String(error) });
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

/** Whether a panel listens on its control socket (a stopped panel's leftover socket refuses). */
export function panelListening(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Sends one call to the panel; false when no panel listens (no socket, or one a stopped panel left). */
function ask(socketPath: string, server: string, action: Action, body?: object): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : '';
    const req = http.request({
      socketPath,
      method: 'POST',
      path: `/servers/${server}/${action}`,
      headers: { 'content-length': Buffer.byteLength(payload) },
    });
    req.setTimeout(120_000, () => req.destroy(new Error('the panel did not answer within 120 s')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(false);
      else reject(new DaemonError('unavailable', `The running panel could not be asked: ${error.message}`));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        if (res.statusCode === 204) return resolve(true);
        let parsed: unknown;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          parsed = undefined;
        }
        const refusal = errorBody.safeParse(parsed);
        reject(
          refusal.success
            ? new DaemonError(refusal.data.kind, refusal.data.message)
            : new DaemonError('unavailable', `The running panel answered ${res.statusCode}.`),
        );
      });
    });
    req.end(payload);
  });
}

/**
 * The CLI's local daemon, with the calls that must reach a running panel handed to it: deleting a
 * server (which stops it), a changed configuration, and console-token revocations.
 */
export function viaRunningPanel(local: NodeDaemon, socketPath: string): NodeDaemon {
  const own = local.servers;
  const servers: ServerCapability = {
    create: (server) => own.create(server),
    reinstall: (server) => own.reinstall(server),
    delete: async (server) => {
      if (!(await ask(socketPath, server, 'delete'))) await own.delete(server);
    },
    sync: async (server) => {
      if (!(await ask(socketPath, server, 'sync'))) await own.sync(server);
    },
    revokeSocketTokens: async (server, jtis) => {
      if (!(await ask(socketPath, server, 'revoke', { jtis }))) await own.revokeSocketTokens(server, jtis);
    },
  };
  const ownTransfers = local.transfers;
  const transfers = ownTransfers && {
    send: async (server: string, target: { url: string; token: string }) => {
      if (!(await ask(socketPath, server, 'transfer', target))) await ownTransfers.send(server, target);
    },
  };
  return { files: local.files, servers, events: local.events, process: local.process, stats: local.stats, backups: local.backups, transfers };
}
