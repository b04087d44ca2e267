import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeDemoTree } from './demo-tree';
import { copyNames } from './file-rules';
import { LocalDaemon } from './local';
import { isBelow, resolveBeneath, resolveIn } from './paths';
import { mimeFor, modeString } from './stat';
import { DaemonError } from './types';

describe('lexical path resolution', () => {
  it('roots paths at the volume and applies .. without leaving it', () => {
    expect(resolveBeneath([], '/a/./b//c/')).toEqual(['a', 'b', 'c']);
    expect(resolveBeneath([], '/a/../b.txt')).toEqual(['b.txt']);
    expect(resolveBeneath([], '/etc/passwd')).toEqual(['etc', 'passwd']);
    expect(resolveBeneath([], '')).toEqual([]);
    expect(resolveBeneath([], '..\\..\\x')).toEqual(['..\\..\\x']); // a backslash is a name character
    expect(resolveBeneath([], '%2e%2e%2f')).toEqual(['%2e%2e%2f']); // never decoded again
    expect(resolveIn('/dir', '../c.txt')).toEqual(['c.txt']);
    expect(resolveIn('/dir', '/x')).toEqual(['dir', 'x']);
  });

  it.each(['..', '../x', '/..', 'a/../../b', './../', '/a/b/../../..', 'a\0b'])('refuses %j as not found', (p) => {
    expect(() => resolveBeneath([], p)).toThrow(DaemonError);
    try {
      resolveBeneath([], p);
    } catch (error) {
      expect((error as DaemonError).kind).toBe('not_found');
    }
  });

  it('knows what lies below what', () => {
    expect(isBelow(['a'], ['a', 'b'])).toBe(true);
    expect(isBelow(['a'], ['a'])).toBe(false);
    expect(isBelow(['a'], ['ab'])).toBe(false);
  });
});

describe('stat helpers', () => {
  it('prints modes as Go does', () => {
    expect(modeString({ mode: 0o100644 })).toBe('-rw-r--r--');
    expect(modeString({ mode: 0o040755 })).toBe('drwxr-xr-x');
    expect(modeString({ mode: 0o120777 })).toBe('Lrwxrwxrwx');
    expect(modeString({ mode: 0o010600 })).toBe('prw-------');
    expect(modeString({ mode: 0o104755 })).toBe('urwxr-xr-x');
    expect(modeString({ mode: 0o020666 })).toBe('Dcrw-rw-rw-');
  });

  it('derives mimetypes from names', () => {
    expect(mimeFor('server.properties')).toBe('text/plain; charset=utf-8');
    expect(mimeFor('ops.json')).toBe('application/json');
    expect(mimeFor('archive.tar.gz')).toBe('application/tar+gzip');
    expect(mimeFor('x.zip')).toBe('application/zip');
    expect(mimeFor('level.dat')).toBe('application/octet-stream');
    expect(mimeFor('noext')).toBe('application/octet-stream');
  });

  it('names copies as Wings does', () => {
    const names = (n: string) => [...copyNames(n)].slice(0, 3);
    expect(names('server.properties')).toEqual(['server copy.properties', 'server copy 1.properties', 'server copy 2.properties']);
    expect(names('world.tar.gz')[0]).toBe('world copy.tar.gz');
    expect(names('README')[0]).toBe('README copy');
    expect(names('.env')[0]).toBe(' copy.env');
  });
});

describe('LocalDaemon', () => {
  let dataDir: string;
  let daemon: LocalDaemon;
  const uuid = '0b6a3d2e-7a9c-4c61-9d55-3f1f8f7e2c10';
  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-daemon-'));
    daemon = new LocalDaemon(dataDir);
    await daemon.createVolume(uuid);
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes a realistic demo tree under 1 MB', async () => {
    await writeDemoTree(daemon, uuid);
    await writeDemoTree(daemon, uuid);
    const names = (await daemon.listDirectory(uuid, '/')).map((e) => e.name);
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
    expect((await daemon.listDirectory(uuid, '/logs')).map((e) => e.name)).toEqual(['2026-02-27-1.log.gz', '2026-02-28-1.log.gz', 'latest.log']);
    expect((await daemon.listDirectory(uuid, '/world/region')).length).toBe(4);
    expect((await daemon.listDirectory(uuid, '/plugins')).filter((e) => e.isDirectory).map((e) => e.name)).toEqual(['EssentialsX', 'LuckPerms']);
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

  it('lists names that are not valid UTF-8 and every entry of a 3,000-entry directory', async () => {
    const vol = daemon.volumePath(uuid);
    fs.writeFileSync(Buffer.concat([Buffer.from(`${vol}/bad-`), Buffer.from([0xff, 0xfe])]), 'x');
    const [entry] = await daemon.listDirectory(uuid, '/');
    expect(entry?.name).toBe('bad-\uFFFD\uFFFD');
    fs.mkdirSync(path.join(vol, 'many'));
    for (let i = 0; i < 3_000; i += 1) fs.writeFileSync(path.join(vol, 'many', `f${i}`), '');
    expect((await daemon.listDirectory(uuid, '/many')).length).toBe(3_000);
  });

  it('refuses a volume that is missing or a link', async () => {
    await expect(daemon.listDirectory('0b6a3d2e-7a9c-4c61-9d55-3f1f8f7e2c11', '/')).rejects.toMatchObject({ kind: 'not_found' });
    const linked = '0b6a3d2e-7a9c-4c61-9d55-3f1f8f7e2c12';
    fs.symlinkSync(daemon.volumePath(uuid), daemon.volumePath(linked));
    await expect(daemon.listDirectory(linked, '/')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('deletes a deep tree through handles', async () => {
    const vol = daemon.volumePath(uuid);
    let p = path.join(vol, 'deep');
    for (let i = 0; i < 100; i += 1) p = path.join(p, 'd');
    fs.mkdirSync(p, { recursive: true });
    fs.writeFileSync(path.join(p, 'leaf'), 'x');
    await daemon.deleteFiles(uuid, '/', ['deep']);
    expect(fs.readdirSync(vol)).toEqual([]);
  });
});
