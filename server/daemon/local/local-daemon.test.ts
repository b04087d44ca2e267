import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, vi } from 'vitest';
import { test } from '../../test/fixtures';
import { testConfiguration } from '../../test/daemon-contract';
import { writeDemoTree } from '../demo-tree';
import { DaemonError } from '../types';
import { ConfigurationStore } from '../../test/configuration-store';
import { LocalDaemon } from '.';

const store = new ConfigurationStore();

const SERVER = '0b6a3d2e-7a9c-4c61-9d55-3f1f8f7e2c10';

/** A daemon on an empty temp dir holding one server, SERVER, with its volume created. */
const it = test.extend('daemon', async ({ tempDir }) => {
  // These tests do not test limits: they run where no cgroups can hold a server, too.
  const daemon = new LocalDaemon(tempDir, { configurationSource: store.source, allowUnlimitedServers: true });
  await store.apply(daemon, testConfiguration(SERVER));
  await daemon.servers.create(SERVER);
  return daemon;
});

/** Makes SERVER run the demo game (copied into its volume); returns the configuration it now has. */
async function installDemoGame(daemon: LocalDaemon) {
  const configuration = testConfiguration(SERVER);
  configuration.settings.invocation = 'node game.mjs';
  configuration.process_configuration.startup.done = ['For help'];
  await store.apply(daemon, configuration);
  fs.copyFileSync(path.join(import.meta.dirname, 'demo-game.mjs'), path.join(daemon.volumePath(SERVER), 'game.mjs'));
  return configuration;
}

describe('LocalDaemon', () => {
  const uuid = SERVER;

  it('writes a realistic demo tree under 1 MB', async ({ daemon }) => {
    await writeDemoTree(daemon.files, uuid);
    await writeDemoTree(daemon.files, uuid);
    const names = (await daemon.files.list(uuid, '/')).map((e) => e.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'logs',
        'plugins',
        'world',
        'server.properties',
        'eula.txt',
        'bukkit.yml',
        'spigot.yml',
        'ops.json',
        'whitelist.json',
        'start.sh',
        'README.md',
      ]),
    );
    expect((await daemon.files.list(uuid, '/logs')).map((e) => e.name)).toEqual(['2026-02-27-1.log.gz', '2026-02-28-1.log.gz', 'latest.log']);
    expect((await daemon.files.list(uuid, '/world/region')).length).toBe(4);
    expect((await daemon.files.list(uuid, '/plugins')).filter((e) => e.isDirectory).map((e) => e.name)).toEqual(['EssentialsX', 'LuckPerms']);
    let total = 0;
    const walk = (p: string) => {
      for (const e of fs.readdirSync(p, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(p, e.name));
        else total += fs.statSync(path.join(p, e.name)).size;
      }
    };
    walk(daemon.volumePath(uuid));
    expect(total).toBeLessThan(1024 * 1024);
  });

  it('stops a compress whose signal is aborted midway, leaving no archive and the server free', async ({ daemon }) => {
    const vol = daemon.volumePath(uuid);
    fs.mkdirSync(path.join(vol, 'world'));
    fs.writeFileSync(path.join(vol, 'world', 'region.bin'), randomBytes(32 * 1024 * 1024));
    const controller = new AbortController();
    // Aborted as soon as the archive's temporary file appears.
    const watcher = fs.watch(vol, (_event, name) => {
      if (name?.startsWith('.aerie-')) controller.abort();
    });
    try {
      const error = await daemon.files.compress(uuid, '/', ['world'], new Date(), { signal: controller.signal }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(controller.signal.aborted).toBe(true);
      expect(error).toBeInstanceOf(DaemonError);
      expect(fs.readdirSync(vol)).toEqual(['world']);
      await daemon.files.write(uuid, 'after.txt', Buffer.from('x'), { maxBytes: 10 });
      expect(fs.readdirSync(vol).sort()).toEqual(['after.txt', 'world']);
    } finally {
      watcher.close();
    }
  });

  it('lists names that are not valid UTF-8 and every entry of a 3,000-entry directory', async ({ daemon }) => {
    const vol = daemon.volumePath(uuid);
    fs.writeFileSync(Buffer.concat([Buffer.from(`${vol}/bad-`), Buffer.from([0xff, 0xfe])]), 'x');
    const [entry] = await daemon.files.list(uuid, '/');
    expect(entry?.name).toBe('bad-\uFFFD\uFFFD');
    fs.mkdirSync(path.join(vol, 'many'));
    for (let i = 0; i < 3_000; i += 1) fs.writeFileSync(path.join(vol, 'many', `f${i}`), '');
    expect((await daemon.files.list(uuid, '/many')).length).toBe(3_000);
  });

  it('refuses a volume that is missing or a link', async ({ daemon }) => {
    const missing = '0b6a3d2e-7a9c-4c61-9d55-3f1f8f7e2c11';
    await store.apply(daemon, testConfiguration(missing));
    await expect(daemon.files.list(missing, '/')).rejects.toMatchObject({ kind: 'not_found' });
    const linked = '0b6a3d2e-7a9c-4c61-9d55-3f1f8f7e2c12';
    await store.apply(daemon, testConfiguration(linked));
    fs.symlinkSync(daemon.volumePath(uuid), daemon.volumePath(linked));
    await expect(daemon.files.list(linked, '/')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('deletes a deep tree through handles', async ({ daemon }) => {
    const vol = daemon.volumePath(uuid);
    let p = path.join(vol, 'deep');
    for (let i = 0; i < 100; i += 1) p = path.join(p, 'd');
    fs.mkdirSync(p, { recursive: true });
    fs.writeFileSync(path.join(p, 'leaf'), 'x');
    await daemon.files.delete(uuid, '/', ['deep']);
    expect(fs.readdirSync(vol)).toEqual([]);
  });
});

describe('LocalDaemon servers', () => {
  const uuid = '0b6a3d2e-7a9c-4c61-9d55-3f1f8f7e2c20';

  it('pulls the configuration of a server it was not told about once, and a sync takes the newest', async ({ tempDir: dataDir }) => {
    const asked: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let diskMiB = 1;
    const daemon = new LocalDaemon(dataDir, {
      configurationSource: async (server) => {
        asked.push(server);
        await gate;
        return server === uuid ? testConfiguration(uuid, { diskMiB }) : undefined;
      },
    });
    fs.mkdirSync(daemon.volumePath(uuid), { recursive: true });
    const listings = [daemon.files.list(uuid, '/'), daemon.files.list(uuid, '/')];
    release();
    expect(await Promise.all(listings)).toEqual([[], []]);
    expect(asked).toEqual([uuid]);
    const write = () => daemon.files.write(uuid, 'big.bin', Buffer.alloc(2 * 1024 * 1024), { maxBytes: 4 * 1024 * 1024 });
    // The pulled limit applies, and stays until the panel says the server changed.
    await expect(write()).rejects.toMatchObject({ kind: 'no_space' });
    diskMiB = 0;
    await expect(write()).rejects.toMatchObject({ kind: 'no_space' });
    await daemon.servers.sync(uuid);
    await write();
    const other = '0b6a3d2e-7a9c-4c61-9d55-3f1f8f7e2c21';
    await expect(daemon.files.list(other, '/')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(daemon.files.list('../../etc', '/')).rejects.toMatchObject({ kind: 'not_found' });
    expect(asked).toEqual([uuid, uuid, other]);
  });

  it('re-reads nothing on a timer: a sync brings a change, a panel that cannot answer keeps what is held, and a dropped server is forgotten', async ({
    tempDir: dataDir,
  }) => {
    let clock = new Date('2026-03-01T12:00:00Z');
    let answer: () => Promise<ReturnType<typeof testConfiguration> | undefined> = async () => testConfiguration(uuid, { diskMiB: 0 });
    const daemon = new LocalDaemon(dataDir, { configurationSource: () => answer(), now: () => clock });
    const write = () => daemon.files.write(uuid, 'big.bin', Buffer.alloc(2 * 1024 * 1024), { maxBytes: 4 * 1024 * 1024 });
    fs.mkdirSync(daemon.volumePath(uuid), { recursive: true });
    await write();

    // The panel limits the server: however long the node waits, only the sync brings it (as in Wings).
    answer = async () => testConfiguration(uuid, { diskMiB: 1 });
    clock = new Date(clock.getTime() + 3_600_000);
    await write();
    await daemon.servers.sync(uuid);
    await expect(write()).rejects.toMatchObject({ kind: 'no_space' });

    // The panel cannot answer: the sync is refused, and the node keeps the limit it has.
    answer = () => Promise.reject(new Error('database is locked'));
    await expect(daemon.servers.sync(uuid)).rejects.toThrow(/database is locked/);
    await expect(write()).rejects.toMatchObject({ kind: 'no_space' });

    answer = async () => undefined;
    await expect(daemon.servers.sync(uuid)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(daemon.files.list(uuid, '/')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('deletes a volume without following a link out of it, and a volume that is itself a link', async ({ tempDir: dataDir }) => {
    const daemon = new LocalDaemon(dataDir, { configurationSource: store.source });
    const outside = path.join(dataDir, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'canary.txt'), 'CANARY');
    await store.apply(daemon, testConfiguration(uuid));
    await daemon.servers.create(uuid);
    fs.symlinkSync(outside, path.join(daemon.volumePath(uuid), 'out'));
    fs.mkdirSync(path.join(daemon.volumePath(uuid), 'dir'));
    fs.symlinkSync(path.join(outside, 'canary.txt'), path.join(daemon.volumePath(uuid), 'dir', 'canary-link'));
    await daemon.servers.delete(uuid);
    expect(fs.existsSync(daemon.volumePath(uuid))).toBe(false);
    const linked = '0b6a3d2e-7a9c-4c61-9d55-3f1f8f7e2c22';
    fs.symlinkSync(outside, daemon.volumePath(linked));
    await daemon.servers.delete(linked);
    expect(fs.existsSync(daemon.volumePath(linked))).toBe(false);
    expect(fs.readdirSync(outside)).toEqual(['canary.txt']);
    expect(fs.readFileSync(path.join(outside, 'canary.txt'), 'utf8')).toBe('CANARY');
  });

  it('deletes a server whose tree is too deep to remove, leaving the rest aside and logged', async ({ tempDir: dataDir }) => {
    const logged: string[] = [];
    const daemon = new LocalDaemon(dataDir, { configurationSource: store.source, log: (message) => logged.push(message) });
    await store.apply(daemon, testConfiguration(uuid));
    await daemon.servers.create(uuid);
    fs.mkdirSync(path.join(daemon.volumePath(uuid), ...Array.from({ length: 600 }, () => 'd')), { recursive: true });
    await daemon.servers.delete(uuid);
    expect(fs.existsSync(daemon.volumePath(uuid))).toBe(false);
    expect(logged).toEqual([expect.stringMatching(/^could not remove \.deleted-/)]);
    await store.apply(daemon, testConfiguration(uuid));
    await daemon.servers.create(uuid);
    expect(await daemon.files.list(uuid, '/')).toEqual([]);
  });

  it('logs a listener that throws or rejects and carries on', async ({ tempDir: dataDir }) => {
    const logged: string[] = [];
    const daemon = new LocalDaemon(dataDir, { configurationSource: store.source, log: (message) => logged.push(message) });
    daemon.events.subscribe(() => {
      throw new Error('sync');
    });
    daemon.events.subscribe(async () => {
      throw new Error('async');
    });
    await store.apply(daemon, testConfiguration(uuid));
    await daemon.servers.create(uuid);
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged).toEqual(['a install.completed listener failed', 'a install.completed listener failed']);
  });

  it('refuses websocket tokens issued before a revocation or before it started', async ({ tempDir: dataDir }) => {
    let now = new Date('2026-03-01T12:00:00.500Z');
    const daemon = new LocalDaemon(dataDir, { configurationSource: store.source, now: () => now });
    await store.apply(daemon, testConfiguration(uuid));
    const at = (iso: string) => new Date(iso);
    expect(daemon.socketTokenDenied(uuid, 'jti-a', at('2026-03-01T12:00:00Z'))).toBe(true); // before the start
    expect(daemon.socketTokenDenied(uuid, 'jti-a', at('2026-03-01T12:00:01Z'))).toBe(false);
    expect(daemon.socketTokenDenied(uuid, 'jti-a', undefined)).toBe(true);
    now = new Date('2026-03-01T12:05:00Z');
    await daemon.servers.revokeSocketTokens(uuid, ['jti-a']);
    expect(daemon.socketTokenDenied(uuid, 'jti-a', at('2026-03-01T12:04:59Z'))).toBe(true);
    expect(daemon.socketTokenDenied(uuid, 'jti-a', at('2026-03-01T12:05:00Z'))).toBe(false);
    expect(daemon.socketTokenDenied(uuid, 'jti-b', at('2026-03-01T12:04:59Z'))).toBe(false);
    expect(daemon.socketTokenDenied('0b6a3d2e-7a9c-4c61-9d55-3f1f8f7e2c23', 'jti-a', at('2026-03-01T12:04:59Z'))).toBe(false);
  });

  it('stops a running server before a reinstall and kills it before a delete', { timeout: 30_000 }, async ({ daemon }) => {
    await installDemoGame(daemon);
    const running = () =>
      new Promise<void>((resolve) => {
        const stop = daemon.process.subscribe(SERVER, (e) => {
          if (e.type === 'status' && e.state === 'running') {
            stop();
            resolve();
          }
        });
      });
    let up = running();
    await daemon.process.power(SERVER, 'start');
    await up;
    const reinstalled = new Promise<void>((resolve) => {
      const off = daemon.events.subscribe((e) => {
        if (e.type === 'install.completed' && e.reinstall) {
          off();
          resolve();
        }
      });
    });
    await daemon.servers.reinstall(SERVER);
    await reinstalled;
    expect(daemon.process.state(SERVER)).toBe('offline');
    const history = await daemon.process.history(SERVER, 20);
    expect(history).toContainEqual(expect.stringContaining('Goodbye')); // stopped with its stop command
    expect(history.some((l) => l.includes('crashed'))).toBe(false);

    up = running();
    await daemon.process.power(SERVER, 'start');
    await up;
    await daemon.servers.delete(SERVER);
    expect(daemon.process.state(SERVER)).toBe('offline');
    expect(fs.existsSync(daemon.volumePath(SERVER))).toBe(false);
  });

  it('stops a running server before a restore, with its stop command, and restores the files', { timeout: 30_000 }, async ({ daemon }) => {
    await installDemoGame(daemon);
    const volume = daemon.volumePath(SERVER);
    fs.writeFileSync(path.join(volume, 'world.txt'), 'from the backup');
    const ended = (type: 'backup.completed' | 'restore.completed', backup: string) =>
      new Promise<boolean>((resolve) => {
        const off = daemon.events.subscribe((e) => {
          if (e.type === type && e.backup === backup) {
            off();
            resolve(e.successful);
          }
        });
      });
    const backup = '5d1c0f2e-4b3a-4f6e-9a8d-7c6b5a4e3d21';
    const made = ended('backup.completed', backup);
    await daemon.backups.create(SERVER, backup, []);
    expect(await made).toBe(true);
    fs.writeFileSync(path.join(volume, 'world.txt'), 'changed since');
    await daemon.process.power(SERVER, 'start');
    await vi.waitFor(() => expect(daemon.process.state(SERVER)).toBe('running'), { timeout: 10_000 });

    const restored = ended('restore.completed', backup);
    await daemon.backups.restore(SERVER, backup, { truncate: false });
    expect(await restored).toBe(true);
    expect(daemon.process.state(SERVER)).toBe('offline');
    expect(await daemon.process.history(SERVER, 20)).toContainEqual(expect.stringContaining('Goodbye')); // its stop command, not a kill
    expect(fs.readFileSync(path.join(volume, 'world.txt'), 'utf8')).toBe('from the backup');
  });

  it('stops a running server that is suspended, and will not start it again', { timeout: 30_000 }, async ({ daemon }) => {
    const configuration = await installDemoGame(daemon);
    await daemon.process.power(SERVER, 'start');
    await vi.waitFor(() => expect(daemon.process.state(SERVER)).toBe('running'), { timeout: 10_000 });
    const suspended = structuredClone(configuration);
    suspended.settings.suspended = true;
    await store.apply(daemon, suspended);
    await vi.waitFor(() => expect(daemon.process.state(SERVER)).toBe('offline'), { timeout: 10_000 });
    expect(await daemon.process.history(SERVER, 20)).toContainEqual(expect.stringContaining('Goodbye')); // its stop command, not a kill
    await expect(daemon.process.power(SERVER, 'start')).rejects.toMatchObject({ kind: 'conflict' });
  });
});
