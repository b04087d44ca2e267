import { describe, expect, it } from 'vitest';
import { MiB, names, newServer, outcome, put, testConfiguration, uploads, type DaemonUnderTest } from './support';

/*
 * The disk limit comes from the configuration the node holds (`build.disk_space`, MiB, 0 =
 * unlimited), never from the call: a new configuration changes what the next write may do.
 * Exact block accounting belongs to each implementation; the contract keeps a wide margin.
 */

export function describeQuota(under: () => DaemonUnderTest): void {
  describe('files: the disk limit of the held configuration', () => {
    it('refuses every allocating path past the limit with nothing left behind', async () => {
      const { daemon } = under();
      const s = await newServer(daemon, { diskMiB: 1 });
      await put(daemon, s, 'small.txt', 'fits');
      expect(await outcome(put(daemon, s, 'big.bin', Buffer.alloc(2 * MiB)))).toBe('no_space');
      const twoHalves = uploads(
        { filename: 'one.bin', content: Buffer.alloc(600 * 1024) },
        { filename: 'two.bin', content: Buffer.alloc(600 * 1024) },
      );
      expect(await outcome(daemon.files.upload(s, '/', twoHalves, { maxBytes: MiB }))).toBe('no_space');
      await put(daemon, s, 'half.bin', Buffer.alloc(600 * 1024));
      expect(await outcome(daemon.files.copy(s, 'half.bin'))).toBe('no_space');
      expect(await names(daemon, s)).toEqual(['half.bin', 'small.txt']);
    });

    it('follows a new configuration: 0 is unlimited, and a server over its limit may still delete and rename', async () => {
      const { daemon } = under();
      const s = await newServer(daemon, { diskMiB: 1 });
      expect(await outcome(put(daemon, s, 'big.bin', Buffer.alloc(3 * MiB)))).toBe('no_space');
      await daemon.servers.configure(testConfiguration(s, { diskMiB: 0 }));
      await put(daemon, s, 'big.bin', Buffer.alloc(3 * MiB));
      await daemon.servers.configure(testConfiguration(s, { diskMiB: 1 }));
      expect(await outcome(put(daemon, s, 'a.txt', 'x'))).toBe('no_space');
      expect(await outcome(daemon.files.createDirectory(s, '/', 'dir'))).toBe('no_space');
      await daemon.files.rename(s, '/', [{ from: 'big.bin', to: 'renamed.bin' }]);
      await daemon.files.delete(s, '/', ['renamed.bin']);
      await put(daemon, s, 'a.txt', 'x');
      expect(await names(daemon, s)).toEqual(['a.txt']);
    });
  });
}
