import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../../test/fixtures';
import { testConfiguration } from '../../test/daemon-contract/support';
import type { ConsoleEvent, ServerConfiguration } from '../capabilities';
import { DEFAULT_SERVER_USER, prepareHostUser } from './host-user';
import { ServerLocks } from './locks';
import { execFileSync } from 'node:child_process';
import { findPasta, MISSING_PASTA, networkFor, networkWarning, NOT_ROOT, readCounters, sweepNamespaces } from './network';
import { LocalProcesses } from './processes';
import { findBwrap } from './sandbox';

/*
 * Attacks T-SBX-NET as a tenant's program would make them, in real sandboxes with pasta: only
 * loopback traffic. On the old sandbox (the host's network shared) every "unreachable" here was
 * reachable, and A's program took B's port.
 */

const A = '6d1e2b1a-0c1f-4e51-9a77-1a0000000001';
const B = '6d1e2b1a-0c1f-4e51-9a77-1a0000000002';

/** Probes from inside: `connect <port>` says `open`/`closed`; it answers on its allocation (TCP and UDP). */
const PROBE = `
import net from "node:net"; import dgram from "node:dgram"; import readline from "node:readline";
const port = Number(process.env.LISTEN_PORT);
const host = "0.0.0.0";
net.createServer((s) => { s.on("error", () => {}); s.once("data", () => s.end("hello from " + process.env.NAME + "\\n")); }).listen(port, host, () => {
  const u = dgram.createSocket("udp4"); u.on("message", (m, r) => u.send("echo " + m, r.port, r.address));
  u.bind(port, host, () => console.log("Ready"));
});
if (process.env.CONSOLE_PORT) net.createServer((s) => { s.on("error", () => {}); s.end("admin console\\n"); }).listen(Number(process.env.CONSOLE_PORT), "127.0.0.1");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const [cmd, p] = line.split(" ");
  if (cmd !== "connect") return;
  const s = net.connect({ host: "127.0.0.1", port: Number(p), timeout: 2000 });
  s.on("connect", () => { console.log("open " + p); s.destroy(); });
  s.on("error", () => console.log("closed " + p));
  s.on("timeout", () => { console.log("closed " + p); s.destroy(); });
});
`;

const pasta = findPasta();
const bwrap = findBwrap();

const it = test.extend('net', async ({ tempDir }, { onCleanup }) => {
  const configurations = new Map<string, ServerConfiguration>();
  const events = new Map<string, ConsoleEvent[]>();
  const hostPort = await freePort();
  const locks = new ServerLocks();
  // Servers run as Wings' unprivileged user when the tests run as root (CI does).
  const hostUser = prepareHostUser(DEFAULT_SERVER_USER, tempDir, path.join(tempDir, 'volumes'), (m) => {
    throw new Error(m);
  });
  const processes = new LocalProcesses({
    logDir: path.join(tempDir, 'logs'),
    configuration: (server) => Promise.resolve(configurations.get(server) ?? testConfiguration(server)),
    volumePath: (server) => path.join(tempDir, 'volumes', server),
    powerLock: (server, fn) => locks.power(server, fn),
    bwrap,
    hostUser,
    network: { hostPorts: [hostPort.port] },
    log: () => undefined,
    stopTimeoutMs: 2_000,
  });
  onCleanup(async () => {
    await Promise.all([A, B].map((s) => processes.halt(s, 'kill')));
    hostPort.server.close();
  });
  /** Starts `server` running the probe on its allocation `port` (and `listenPort` inside, the same by default). */
  const start = async (server: string, port: number, options: { listenPort?: number; consolePort?: number; ip?: string } = {}) => {
    const volume = path.join(tempDir, 'volumes', server);
    fs.mkdirSync(volume, { recursive: true });
    fs.writeFileSync(path.join(volume, 'probe.mjs'), PROBE);
    const c = testConfiguration(server);
    const ip = options.ip ?? '127.0.0.1';
    c.settings.allocations = { force_outgoing_ip: false, default: { ip, port }, mappings: { [ip]: [port] } };
    c.settings.environment = {
      NAME: server,
      LISTEN_PORT: String(options.listenPort ?? port),
      ...(options.consolePort ? { CONSOLE_PORT: String(options.consolePort) } : {}),
    };
    c.settings.invocation = 'node probe.mjs';
    c.process_configuration.startup.done = ['Ready'];
    configurations.set(server, c);
    const seen: ConsoleEvent[] = [];
    events.set(server, seen);
    processes.subscribe(server, (e) => seen.push(e));
    await processes.power(server, 'start');
    await until(() => seen.some((e) => e.type === 'status' && e.state === 'running'));
  };
  /** What the program inside `server` gets connecting to 127.0.0.1:`port`. */
  const probe = async (server: string, port: number): Promise<'open' | 'closed'> => {
    await processes.command(server, `connect ${port}`);
    let answer: 'open' | 'closed' | undefined;
    await until(() => {
      for (const e of events.get(server) ?? []) {
        if (e.type === 'console output' && e.line === `open ${port}`) answer = 'open';
        if (e.type === 'console output' && e.line === `closed ${port}`) answer = 'closed';
      }
      return answer !== undefined;
    });
    return answer ?? 'closed';
  };
  return { processes, start, probe, hostPort: hostPort.port };
});

describe.skipIf(!pasta || !bwrap)('a server in its own network namespace (attacks T-SBX-NET)', () => {
  it('reaches nothing on the host loopback but the permitted host port', { timeout: 30_000 }, async ({ net: n }) => {
    const canary = await freePort();
    try {
      await n.start(A, (await freePort(true)).port);
      expect(await n.probe(A, canary.port)).toBe('closed'); // a listener the host has on 127.0.0.1 (the panel, SFTP, MariaDB…)
      expect(await n.probe(A, n.hostPort)).toBe('open'); // PANEL_SERVER_HOST_PORTS: the database host
    } finally {
      canary.server.close();
    }
  });

  it('is reached by players on its allocation (TCP and UDP), and counts its traffic', { timeout: 30_000 }, async ({ net: n }) => {
    const port = (await freePort(true)).port;
    await n.start(A, port, { ip: '0.0.0.0' });
    expect(await tcpHello(port)).toBe(`hello from ${A}\n`);
    expect(await udpEcho(port, 'ping')).toBe('echo ping');
    // A player from another address (this machine's own, where it has one) comes through the
    // namespace's interface, and its bytes are the server's.
    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a?.family === 'IPv4' && !a.internal)?.address;
    if (outside) {
      expect(await tcpHello(port, outside)).toBe(`hello from ${A}\n`);
      const stats = await n.processes.resources(A);
      expect(stats.network.rx_bytes).toBeGreaterThan(0);
      expect(stats.network.tx_bytes).toBeGreaterThan(0);
    }
    expect(readCounters(-1)).toEqual({ rxBytes: 0, txBytes: 0 });
  });

  it("neither takes another server's port nor reaches its loopback-only console", { timeout: 30_000 }, async ({ net: n }) => {
    const portA = (await freePort(true)).port;
    const portB = (await freePort(true)).port;
    const consoleB = (await freePort(true)).port;
    await n.start(B, portB, { consolePort: consoleB });
    expect(await n.probe(B, consoleB)).toBe('open'); // B's own console, on its loopback
    // A's program listens on B's port inside its own namespace: nothing on the host forwards there.
    await n.start(A, portA, { listenPort: portB });
    expect(await tcpHello(portB)).toBe(`hello from ${B}\n`);
    // B's admin console on its loopback only (a second listener inside B): A cannot reach it.
    expect(await n.probe(A, consoleB)).toBe('closed');
    expect(await n.probe(A, portB)).toBe('open'); // only its own listener, inside its own namespace
    expect(await tcpHello(portB)).toBe(`hello from ${B}\n`);
  });
});

describe('when a server cannot have a network of its own', () => {
  it('refuses without pasta unless the host network is allowed, and says why at start-up', async () => {
    await expect(networkFor([], { pasta: null, allowHostNetwork: false, hostPorts: [] })).rejects.toThrow(MISSING_PASTA);
    await expect(networkFor([], { pasta: null, allowHostNetwork: true, hostPorts: [] })).resolves.toBeNull();
    expect(networkWarning(false, null, true)).toBe(MISSING_PASTA);
    expect(networkWarning(false, '/usr/bin/pasta', false)).toBe(NOT_ROOT);
    expect(networkWarning(true, '/usr/bin/pasta', false)).toMatch(/share the host network/);
    expect(networkWarning(false, '/usr/bin/pasta', true)).toBeNull();
  });
});

describe.skipIf(process.getuid?.() !== 0)('namespaces a panel left behind', () => {
  it('are released at the next start, and those of a running panel kept', async ({ tempDir }) => {
    const dead = path.join(tempDir, '2147483646-1'); // no such process
    const mine = path.join(tempDir, `${process.pid}-99`);
    for (const file of [dead, mine]) {
      fs.writeFileSync(file, '');
      execFileSync('unshare', [`--net=${file}`, 'true']);
    }
    await sweepNamespaces(tempDir);
    expect(fs.existsSync(dead)).toBe(false);
    expect(fs.readFileSync('/proc/self/mountinfo', 'utf8')).toContain(mine);
    execFileSync('umount', [mine]);
  });
});

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not seen in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A listener on the host's 127.0.0.1 (closed at once with `release`, to hand out a free port). */
async function freePort(release = false): Promise<{ port: number; server: net.Server }> {
  const server = net.createServer((s) => s.end('host\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  if (release) await new Promise((resolve) => server.close(resolve));
  return { port, server };
}

function tcpHello(port: number, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    // The player speaks first, as in most game protocols (see the README on Debian 12's pasta).
    const s = net.connect({ host, port, timeout: 5000 }, () => s.write('hi\n'));
    s.on('data', (d: Buffer) => (text += d.toString()));
    s.on('end', () => resolve(text));
    s.on('error', reject);
    s.on('timeout', () => reject(new Error('timeout')));
  });
}

function udpEcho(port: number, message: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const u = dgram.createSocket('udp4');
    const timer = setTimeout(() => {
      u.close();
      reject(new Error('no UDP answer'));
    }, 5000);
    u.on('message', (m) => {
      clearTimeout(timer);
      u.close();
      resolve(m.toString());
    });
    u.send(message, port, '127.0.0.1');
  });
}
