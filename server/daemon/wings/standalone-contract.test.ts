import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll } from 'vitest';
import type { DaemonEvent, NodeDaemon, ServerConfiguration } from '../capabilities';
import { describeNodeDaemon } from '../../test/daemon-contract';
import { WingsNode } from '.';

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/*
 * The daemon contract suite against this client driving Aerie's node as its own process
 * (`npm run -s node -- --config config.yml`), over Wings' API both ways. The panel's side of the
 * remote API is played by a small double that serves the configurations the suite puts in
 * with `configure` and passes the node's install reports to the client's event channel, as
 * `routes/remote.ts` does; the suite's servers are not in any panel's database.
 *
 * Wings answers a create at once (202) and reports the install's end later; the suite's `create`
 * waits for that report, as the local node answers once the install has ended.
 */

const TOKEN_ID = 'contracttokenid0';
const TOKEN = 'c'.repeat(64);

interface Standalone {
  daemon: NodeDaemon;
  /** The panel's side: serves the configuration, and has the node fetch it now if it holds the server (Wings knows no server before its create). */
  configure(configuration: ServerConfiguration): Promise<void>;
  volumes: string;
  stop(): Promise<void>;
}

let running: Promise<Standalone> | undefined;

afterAll(async () => {
  await (await running)?.stop();
});

describeNodeDaemon('WingsNode → standalone Aerie node', async () => {
  running ??= startStandalone();
  const { daemon, volumes, configure } = await running;
  return {
    daemon,
    configure,
    plantLink: async (server, at, target) => {
      const where = path.join(volumes, server, at);
      fs.mkdirSync(path.dirname(where), { recursive: true });
      fs.symlinkSync(target, where);
    },
    // A body of unknown length is spooled whole before Wings is sent it (it needs Content-Length).
    streamsBodies: false,
    // One node process serves every test (each makes servers of its own).
    close: async () => undefined,
  };
});

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function startStandalone(): Promise<Standalone> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-standalone-'));
  const configurations = new Map<string, ServerConfiguration>();
  const installs = new Map<string, (event: DaemonEvent) => void>();
  const port = await freePort();
  const wings = new WingsNode({ name: 'standalone', baseUrl: `http://127.0.0.1:${port}`, token: () => TOKEN });

  const panel = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body?: unknown) => {
        res
          .writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' })
          .end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${TOKEN_ID}.${TOKEN}`)
        return answer(403, { errors: [{ code: 'HttpException', status: '403', detail: 'No.' }] });
      const url = new URL(req.url ?? '/', 'http://panel');
      const [, , , kind, uuid = '', tail] = url.pathname.split('/');
      if (req.method === 'GET' && url.pathname === '/api/remote/servers')
        return answer(200, { data: [], meta: { current_page: 1, last_page: 1, total: 0 } });
      if (req.method === 'POST' && url.pathname === '/api/remote/servers/reset') return answer(204);
      if (kind === 'servers' && req.method === 'GET' && tail === undefined) {
        const configuration = configurations.get(uuid);
        return configuration
          ? answer(200, configuration)
          : answer(404, { errors: [{ code: 'NotFoundHttpException', status: '404', detail: 'Not found.' }] });
      }
      if (kind === 'servers' && req.method === 'GET' && tail === 'install')
        return answer(200, { container_image: 'alpine', entrypoint: 'ash', script: '' });
      if (kind === 'servers' && req.method === 'POST' && tail === 'install') {
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { successful?: boolean; reinstall?: boolean };
        const event: DaemonEvent = {
          type: 'install.completed',
          server: uuid,
          successful: body.successful === true,
          reinstall: body.reinstall === true,
        };
        answer(204);
        installs.get(uuid)?.(event);
        wings.events.publish(event);
        return;
      }
      // Backup and restore reports, activity: taken.
      return answer(204);
    });
  });
  await new Promise<void>((resolve) => panel.listen(0, '127.0.0.1', resolve));
  const panelUrl = `http://127.0.0.1:${(panel.address() as AddressInfo).port}`;

  const configFile = path.join(dir, 'config.yml');
  fs.writeFileSync(
    configFile,
    stringify({
      debug: false,
      uuid: randomUUID(),
      token_id: TOKEN_ID,
      token: TOKEN,
      api: { host: '127.0.0.1', port, upload_limit: 100 },
      system: { data: path.join(dir, 'volumes'), sftp: { bind_port: await freePort() } },
      remote: panelUrl,
      allowed_origins: [],
    }),
  );
  // A process group of its own: npm, tsx and the node are stopped together, by this group's id.
  const child: ChildProcess = spawn('npm', ['run', '-s', 'node', '--', '--config', configFile], {
    cwd: path.resolve(__dirname, '../../..'),
    env: { ...process.env, PANEL_ALLOW_UNLIMITED_SERVERS: 'true', PANEL_ALLOCATION_PORTS: '31100-31199' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.pid !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
      // npm may exit before the node it ran, which still writes its logs as it stops: the whole
      // group is gone before its folder is removed.
      for (let i = 0; i < 100 && groupAlive(child.pid); i += 1) await new Promise((r) => setTimeout(r, 50));
    }
    panel.closeAllConnections();
    await new Promise<void>((resolve) => panel.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  };

  for (let i = 0; ; i += 1) {
    if ((await wings.health(1000)).reachable) break;
    if (child.exitCode !== null || i > 300) {
      await stop();
      throw new Error(`The standalone node did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // The suite's view: create answers once the install has been reported.
  const created = new Set<string>();
  const servers: NodeDaemon['servers'] = {
    sync: (server) => wings.servers.sync(server),
    create: async (server) => {
      const reported = new Promise<DaemonEvent>((resolve) => installs.set(server, resolve));
      try {
        await wings.servers.create(server);
        await reported;
        created.add(server);
      } finally {
        installs.delete(server);
      }
    },
    reinstall: (server) => wings.servers.reinstall(server),
    delete: async (server) => {
      await wings.servers.delete(server);
      created.delete(server);
    },
    revokeSocketTokens: (server, jtis) => wings.servers.revokeSocketTokens(server, jtis),
  };
  const daemon: NodeDaemon = {
    files: wings.files,
    servers,
    events: wings.events,
    process: wings.process,
    stats: wings.stats,
    backups: wings.backups,
  };
  const configure = async (configuration: ServerConfiguration) => {
    configurations.set(configuration.settings.uuid, configuration);
    if (created.has(configuration.settings.uuid)) await wings.servers.sync(configuration.settings.uuid);
  };
  return { daemon, configure, volumes: path.join(dir, 'volumes'), stop };
}
