import { describe, expect, it } from 'vitest';
import { gatedStream, MiB, names, newServer, outcome, put, testConfiguration, uploads, type DaemonUnderTest } from './support';

/*
 * The disk limit comes from the configuration the node holds (`build.disk_space`, MiB, 0 =
 * unlimited), never from the call: a new configuration changes what the next write may do.
 * Exact block accounting belongs to each implementation; the contract keeps a wide margin.
 */

export function describeQuota(under: () => DaemonUnderTest): void {
  describe('files: the disk limit of the held configuration', () => {
    it('refuses every allocating path past the limit with nothing left behind', async () => {
      const { daemon, configure } = under();
      const s = await newServer({ daemon, configure }, { diskMiB: 1 });
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

    it('receives a body without holding up the server: other writes go on, and see what it holds', async ({ skip }) => {
      const { daemon, configure, streamsBodies } = under();
      skip(streamsBodies === false, 'bodies are received whole before the node sees them');
      const s = await newServer({ daemon, configure }, { diskMiB: 1 });
      const a = gatedStream();
      const b = gatedStream();
      const first = daemon.files.upload(s, '/', uploads({ filename: 'a.bin', content: a.stream }), { maxBytes: MiB });
      a.push(Buffer.alloc(600 * 1024));
      await a.taken();
      // Meanwhile the server's other writes complete, within what the arriving body leaves.
      await daemon.files.createDirectory(s, '/', 'dir');
      await put(daemon, s, 'dir/small.txt', 'fits');
      expect(await outcome(put(daemon, s, 'big.bin', Buffer.alloc(600 * 1024)))).toBe('no_space');
      // A second body that fits alone but not beside the first is refused while it arrives.
      const second = daemon.files.upload(s, '/', uploads({ filename: 'b.bin', content: b.stream }), { maxBytes: MiB });
      b.push(Buffer.alloc(600 * 1024));
      expect(await outcome(second)).toBe('no_space');
      a.end();
      b.end();
      expect(await first).toEqual(['a.bin']);
      expect(await names(daemon, s)).toEqual(['dir', 'a.bin']);
    });

    it('gives back at once what an abandoned body held', async ({ skip }) => {
      const { daemon, configure, streamsBodies } = under();
      skip(streamsBodies === false, 'bodies are received whole before the node sees them');
      const s = await newServer({ daemon, configure }, { diskMiB: 1 });
      const gone = gatedStream();
      const upload = daemon.files.upload(s, '/', uploads({ filename: 'gone.bin', content: gone.stream }), { maxBytes: MiB });
      gone.push(Buffer.alloc(900 * 1024));
      await gone.taken();
      expect(await outcome(put(daemon, s, 'big.bin', Buffer.alloc(300 * 1024)))).toBe('no_space');
      gone.fail(new Error('the client went away'));
      expect(await outcome(upload)).not.toBe('ok');
      await put(daemon, s, 'big.bin', Buffer.alloc(900 * 1024));
      expect(await names(daemon, s)).toEqual(['big.bin']);
    });

    it('follows a new configuration: 0 is unlimited, and a server over its limit may still delete and rename', async () => {
      const { daemon, configure } = under();
      const s = await newServer({ daemon, configure }, { diskMiB: 1 });
      expect(await outcome(put(daemon, s, 'big.bin', Buffer.alloc(3 * MiB)))).toBe('no_space');
      await configure(testConfiguration(s, { diskMiB: 0 }));
      await put(daemon, s, 'big.bin', Buffer.alloc(3 * MiB));
      await configure(testConfiguration(s, { diskMiB: 1 }));
      expect(await outcome(put(daemon, s, 'a.txt', 'x'))).toBe('no_space');
      expect(await outcome(daemon.files.createDirectory(s, '/', 'dir'))).toBe('no_space');
      await daemon.files.rename(s, '/', [{ from: 'big.bin', to: 'renamed.bin' }]);
      await daemon.files.delete(s, '/', ['renamed.bin']);
      await put(daemon, s, 'a.txt', 'x');
      expect(await names(daemon, s)).toEqual(['a.txt']);
    });
  });
}
