import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NOT_FOUND_MESSAGE } from '../../daemon/types';
import { gatedStream, MiB, names, newServer, outcome, put, refusal, text, uploads, type DaemonUnderTest } from './support';

/* The file capability as the panel relies on it, whatever the node. */

export function describeFiles(under: () => DaemonUnderTest): void {
  describe('files: reading', () => {
    it('lists directories first, then files, by name, links as links', async () => {
      const { daemon, plantLink, configure } = under();
      const s = await newServer({ daemon, configure });
      await put(daemon, s, 'b.txt', 'b');
      await put(daemon, s, 'a.txt', 'a');
      await daemon.files.createDirectory(s, '/', 'zdir');
      await plantLink(s, 'link', 'a.txt');
      const entries = await daemon.files.list(s, '/');
      expect(entries.map((e) => e.name)).toEqual(['zdir', 'a.txt', 'b.txt', 'link']);
      expect(entries[0]).toMatchObject({ isDirectory: true, isFile: false, mimetype: 'inode/directory' });
      expect(entries[1]).toMatchObject({ isFile: true, isSymlink: false, size: 1, mode: '-rw-r--r--', modeBits: '644' });
      expect(entries[3]).toMatchObject({ isSymlink: true, mimetype: 'inode/symlink' });
    });

    it('reads and opens regular files; refuses directories, links and files past the cap', async () => {
      const { daemon, plantLink, configure } = under();
      const s = await newServer({ daemon, configure });
      await put(daemon, s, 'dir/config.yml', 'key: value\n');
      await plantLink(s, 'dir/link.yml', 'config.yml');
      expect(await text(daemon, s, '/dir/config.yml')).toBe('key: value\n');
      const { stat, stream } = await daemon.files.open(s, 'dir/config.yml');
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      expect(stat).toMatchObject({ name: 'config.yml', size: 11 });
      expect(Buffer.concat(chunks).toString()).toBe('key: value\n');
      expect(await outcome(daemon.files.read(s, 'dir/config.yml', 10))).toBe('too_large');
      expect(await outcome(daemon.files.read(s, 'dir', MiB))).toBe('bad_request');
      expect(await outcome(daemon.files.read(s, 'dir/link.yml', MiB))).toBe('not_found');
      expect(await outcome(daemon.files.read(s, 'dir/missing.yml', MiB))).toBe('not_found');
    });

    it('answers every escape exactly like a missing file', async () => {
      const { daemon, plantLink, configure } = under();
      const a = await newServer({ daemon, configure });
      const b = await newServer({ daemon, configure });
      await put(daemon, b, 'canary.txt', 'CANARY');
      await plantLink(a, 'up', '..');
      await plantLink(a, 'sibling', `../${b}`);
      const missing = await refusal(daemon.files.read(a, 'nothing-here.txt', MiB));
      expect(missing).toMatchObject({ kind: 'not_found', message: NOT_FOUND_MESSAGE });
      for (const p of ['../x', '/../x', 'a/../../x', `up/${b}/canary.txt`, 'sibling/canary.txt', `../${b}/canary.txt`]) {
        expect(await refusal(daemon.files.read(a, p, MiB))).toMatchObject({ kind: 'not_found', message: NOT_FOUND_MESSAGE });
        expect(await outcome(daemon.files.open(a, p))).toBe('not_found');
      }
      expect(await outcome(daemon.files.list(a, 'sibling'))).toBe('not_found');
      expect(await outcome(daemon.files.list(a, '..'))).toBe('not_found');
      expect(await outcome(put(daemon, a, 'sibling/evil.txt', 'x'))).toBe('not_found');
      expect(await outcome(daemon.files.delete(a, '/sibling', ['canary.txt']))).toBe('not_found');
      expect(await outcome(daemon.files.rename(a, '/', [{ from: 'sibling/canary.txt', to: 'stolen.txt' }]))).toBe('not_found');
      expect(await names(daemon, b)).toEqual(['canary.txt']);
      expect(await text(daemon, b, 'canary.txt')).toBe('CANARY');
    });
  });

  describe('files: writing is all or nothing', () => {
    it('creates parents, replaces content, and leaves the old file whole when a write fails', async () => {
      const { daemon, configure } = under();
      const s = await newServer({ daemon, configure });
      await put(daemon, s, 'a/b/c.txt', 'first');
      await put(daemon, s, 'a/b/c.txt', 'second');
      expect(await text(daemon, s, 'a/b/c.txt')).toBe('second');
      const tooBig = daemon.files.write(s, 'a/b/c.txt', Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), { maxBytes: 1000 });
      expect(await outcome(tooBig)).toBe('too_large');
      const broken = gatedStream();
      const failing = daemon.files.write(s, 'a/b/c.txt', broken.stream, { maxBytes: MiB });
      broken.push('partial');
      await broken.taken();
      broken.fail(new Error('connection reset'));
      expect(await outcome(failing)).not.toBe('ok');
      expect(await text(daemon, s, 'a/b/c.txt')).toBe('second');
      expect(await names(daemon, s, 'a/b')).toEqual(['c.txt']);
      expect(await outcome(put(daemon, s, 'a/b', 'x'))).toBe('bad_request');
      expect(await outcome(put(daemon, s, '/', 'x'))).toBe('bad_request');
    });

    it('stores an upload only when every file arrived, under base names', async () => {
      const { daemon, configure } = under();
      const s = await newServer({ daemon, configure });
      const failed = daemon.files.upload(
        s,
        '/',
        uploads({ filename: 'one.txt', content: Buffer.from('1') }, { filename: 'two.txt', content: Buffer.alloc(2000) }),
        {
          maxBytes: 1000,
        },
      );
      expect(await outcome(failed)).toBe('too_large');
      expect(await names(daemon, s)).toEqual([]);
      const stored = await daemon.files.upload(
        s,
        '/',
        uploads({ filename: '../../one.txt', content: Buffer.from('1') }, { filename: 'two.txt', content: Buffer.from('2') }),
        {
          maxBytes: 1000,
        },
      );
      expect(stored).toEqual(['one.txt', 'two.txt']);
      expect(await names(daemon, s)).toEqual(['one.txt', 'two.txt']);
      expect(await outcome(daemon.files.upload(s, '/', uploads(), { maxBytes: 1000 }))).toBe('bad_request');
    });

    it('holds up no other write while a body arrives: each write lands when its body is complete', async () => {
      const { daemon, configure } = under();
      const s = await newServer({ daemon, configure }, { diskMiB: 1 });
      const slow = gatedStream();
      const first = daemon.files.write(s, 'same.txt', slow.stream, { maxBytes: MiB });
      slow.push('fir');
      await slow.taken();
      await put(daemon, s, 'same.txt', 'second');
      await daemon.files.createDirectory(s, '/', 'made meanwhile');
      expect(await text(daemon, s, 'same.txt')).toBe('second');
      slow.push('st');
      slow.end();
      await first;
      expect(await text(daemon, s, 'same.txt')).toBe('first');
      expect(await names(daemon, s)).toEqual(['made meanwhile', 'same.txt']);
    });
  });

  describe('files: rename, copy, delete, create-folder', () => {
    it('renames and moves, skipping missing sources and refusing taken names, the root and moves into oneself', async () => {
      const { daemon, configure } = under();
      const s = await newServer({ daemon, configure });
      await put(daemon, s, 'a.txt', 'a');
      await put(daemon, s, 'b.txt', 'b');
      await put(daemon, s, 'dir/inner.txt', 'i');
      // Only the pairs that moved come back, so the panel logs nothing about the missing one.
      const moved = await daemon.files.rename(s, '/', [
        { from: 'a.txt', to: 'moved/deeper/a.txt' },
        { from: 'missing.txt', to: 'x.txt' },
      ]);
      expect(moved).toEqual([{ from: 'a.txt', to: 'moved/deeper/a.txt' }]);
      expect(await text(daemon, s, 'moved/deeper/a.txt')).toBe('a');
      expect(await outcome(daemon.files.rename(s, '/', [{ from: 'b.txt', to: 'dir/inner.txt' }]))).toBe('bad_request');
      expect(await outcome(daemon.files.rename(s, '/', [{ from: 'dir', to: 'dir/sub' }]))).toBe('bad_request');
      expect(await outcome(daemon.files.rename(s, '/', [{ from: '/', to: 'root' }]))).toBe('bad_request');
      expect(await text(daemon, s, 'b.txt')).toBe('b');
      expect((await names(daemon, s)).sort()).toEqual(['b.txt', 'dir', 'moved']);
    });

    it('copies regular files only, next to themselves, under the next free copy name', async () => {
      const { daemon, plantLink, configure } = under();
      const s = await newServer({ daemon, configure });
      await put(daemon, s, 'cfg/server.properties', 'motd=hi');
      await plantLink(s, 'cfg/link', 'server.properties');
      expect(await daemon.files.copy(s, 'cfg/server.properties')).toBe('server copy.properties');
      expect(await daemon.files.copy(s, '/cfg/server.properties')).toBe('server copy 1.properties');
      expect(await text(daemon, s, 'cfg/server copy 1.properties')).toBe('motd=hi');
      expect(await outcome(daemon.files.copy(s, 'cfg'))).toBe('not_found');
      expect(await outcome(daemon.files.copy(s, 'cfg/link'))).toBe('not_found');
      expect(await outcome(daemon.files.copy(s, 'cfg/missing'))).toBe('not_found');
    });

    it('deletes trees and links, never what a link points at, nor the root', async () => {
      const { daemon, plantLink, configure } = under();
      const s = await newServer({ daemon, configure });
      await put(daemon, s, 'keep/data.txt', 'kept');
      await put(daemon, s, 'tree/a/b/c.txt', 'c');
      await plantLink(s, 'tree/to-keep', '../keep');
      await plantLink(s, 'keep-link', 'keep');
      // The names that existed come back as given; a missing one (or one named twice) is left out.
      expect(await daemon.files.delete(s, '/', ['tree', '/keep-link', 'missing.txt', 'tree'])).toEqual(['tree', '/keep-link']);
      expect(await names(daemon, s)).toEqual(['keep']);
      expect(await text(daemon, s, 'keep/data.txt')).toBe('kept');
      expect(await outcome(daemon.files.delete(s, '/', ['/']))).toBe('bad_request');
      expect(await outcome(daemon.files.delete(s, '/keep', ['..']))).toBe('bad_request');
    });

    it('creates folders with their parents and refuses a taken name', async () => {
      const { daemon, configure } = under();
      const s = await newServer({ daemon, configure });
      await daemon.files.createDirectory(s, '/plugins', 'a/b');
      expect(await names(daemon, s, '/plugins/a')).toEqual(['b']);
      expect(await outcome(daemon.files.createDirectory(s, '/plugins', 'a'))).toBe('bad_request');
      await put(daemon, s, 'file', 'x');
      expect(await outcome(daemon.files.createDirectory(s, '/', 'file'))).toBe('bad_request');
    });

    it('compresses into an archive beside the files and extracts it again', async () => {
      const { daemon, configure } = under();
      const s = await newServer({ daemon, configure });
      await put(daemon, s, 'world/level.dat', 'level');
      await put(daemon, s, 'world/region/r.0.0.mca', 'region');
      const archive = await daemon.files.compress(s, '/', ['world'], new Date('2026-03-01T12:00:00Z'));
      expect(archive.name).toMatch(/^archive-.*\.tar\.gz$/);
      expect(archive.size).toBeGreaterThan(0);
      await daemon.files.createDirectory(s, '/', 'restore');
      await daemon.files.rename(s, '/', [{ from: archive.name, to: `restore/${archive.name}` }]);
      await daemon.files.decompress(s, '/restore', archive.name);
      expect(await text(daemon, s, 'restore/world/region/r.0.0.mca')).toBe('region');
      expect(await outcome(daemon.files.compress(s, '/world', ['../../etc'], new Date()))).toBe('not_found');
      expect(await outcome(daemon.files.decompress(s, '/', 'world/level.dat'))).toBe('bad_request');
    });

    it('refuses a compress naming a file twice or inside a folder it names, and stops one whose signal is aborted', async () => {
      const { daemon, configure } = under();
      const s = await newServer({ daemon, configure });
      await put(daemon, s, 'world/level.dat', 'level');
      const now = new Date('2026-03-01T12:00:00Z');
      expect(await outcome(daemon.files.compress(s, '/', ['world', 'world'], now))).toBe('bad_request');
      expect(await outcome(daemon.files.compress(s, '/', ['world/level.dat', 'world'], now))).toBe('bad_request');
      const controller = new AbortController();
      controller.abort();
      expect(await outcome(daemon.files.compress(s, '/', ['world'], now, { signal: controller.signal }))).not.toBe('ok');
      expect(await names(daemon, s)).toEqual(['world']);
      // Nothing holds the server: the next write goes through.
      await put(daemon, s, 'after.txt', 'x');
      expect(await names(daemon, s)).toEqual(['world', 'after.txt']);
    });
  });
}
