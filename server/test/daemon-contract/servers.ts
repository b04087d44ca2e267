import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../../daemon/capabilities';
import { gatedStream, MiB, names, newServer, outcome, put, recordEvents, settle, testConfiguration, text, type DaemonUnderTest } from './support';

/* A server's life on the node, the lock a reinstall takes, and the events the node reports. */

export function describeServers(under: () => DaemonUnderTest): void {
  describe('servers: configuration and life', () => {
    it('knows only servers it holds a configuration for', async () => {
      const { daemon, configure } = under();
      const unknown = randomUUID();
      expect(await outcome(daemon.files.list(unknown, '/'))).toBe('not_found');
      expect(await outcome(daemon.servers.create(unknown))).toBe('not_found');
      expect(await outcome(daemon.servers.reinstall(unknown))).toBe('not_found');
      expect(await outcome(daemon.servers.revokeSocketTokens(unknown, ['jti']))).toBe('not_found');
      expect(await outcome(daemon.servers.create('not-a-uuid'))).toBe('not_found');
      await configure(testConfiguration(unknown));
      await daemon.servers.create(unknown);
      expect(await names(daemon, unknown)).toEqual([]);
      await daemon.servers.revokeSocketTokens(unknown, ['jti']);
    });

    it('reports each install, keeps the files through a reinstall, and removes everything on delete', async () => {
      const { daemon, configure } = under();
      const events = recordEvents(daemon);
      const s = await newServer({ daemon, configure });
      const other = await newServer({ daemon, configure });
      expect(events.seen).toEqual<DaemonEvent[]>([
        { type: 'install.completed', server: s, successful: true, reinstall: false },
        { type: 'install.completed', server: other, successful: true, reinstall: false },
      ]);
      await put(daemon, s, 'world/level.dat', 'level');
      await put(daemon, other, 'keep.txt', 'kept');
      const reinstalled = events.next('install.completed');
      await daemon.servers.reinstall(s);
      expect(await reinstalled).toEqual({ type: 'install.completed', server: s, successful: true, reinstall: true });
      expect(await text(daemon, s, 'world/level.dat')).toBe('level');
      await daemon.servers.delete(s);
      expect(await outcome(daemon.files.list(s, '/'))).toBe('not_found');
      expect(await outcome(put(daemon, s, 'after.txt', 'x'))).toBe('not_found');
      await daemon.servers.delete(s);
      await daemon.servers.delete(randomUUID());
      await daemon.servers.delete('../..');
      expect(await text(daemon, other, 'keep.txt')).toBe('kept');
      events.unsubscribe();
    });

    it('does not wait for a body still arriving: the write lands once it is complete, after the reinstall', async () => {
      const { daemon, configure } = under();
      const s = await newServer({ daemon, configure });
      const slow = gatedStream();
      const running = daemon.files.write(s, 'upload.bin', slow.stream, { maxBytes: MiB });
      slow.push('up');
      await slow.taken();
      const reinstalled = recordEvents(daemon).next('install.completed');
      await daemon.servers.reinstall(s);
      await reinstalled;
      expect(await names(daemon, s)).toEqual([]);
      slow.push('loaded');
      slow.end();
      await running;
      expect(await text(daemon, s, 'upload.bin')).toBe('uploaded');
      await put(daemon, s, 'after.txt', 'x');
      expect((await names(daemon, s)).sort()).toEqual(['after.txt', 'upload.bin']);
    });
  });

  describe('events', () => {
    it('delivers to every listener even when one throws or rejects, until unsubscribed', async () => {
      const { daemon, configure } = under();
      const heard: string[] = [];
      const offThrow = daemon.events.subscribe(() => {
        throw new Error('listener bug');
      });
      const offReject = daemon.events.subscribe(() => Promise.reject(new Error('listener bug')));
      const offHear = daemon.events.subscribe((event) => {
        if (event.type === 'install.completed') heard.push(event.server);
      });
      const a = await newServer({ daemon, configure });
      await settle();
      offHear();
      const b = await newServer({ daemon, configure });
      await settle();
      expect(heard).toEqual([a]);
      expect(await names(daemon, b)).toEqual([]);
      offThrow();
      offReject();
    });
  });
}
