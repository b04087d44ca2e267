import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../../test/fixtures';
import { gatedStream, outcome, settle, testConfiguration, uploads } from '../../test/daemon-contract/support';

/** Polls `check` (the receive area is written asynchronously; a fixed wait is too short on a loaded machine). */
async function until(check: () => boolean, ms = 5000): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await settle()) if (Date.now() > deadline) throw new Error('not in time');
}
import { ConfigurationStore } from '../../test/configuration-store';
import { LocalDaemon } from '.';

const store = new ConfigurationStore();

const SERVER = '0b6a3d2e-7a9c-4c61-9d55-3f1f8f7e2c30';
const MiB = 1024 * 1024;

/** A daemon on an empty temp dir holding SERVER (1 MiB disk limit), with its volume created. */
const it = test.extend('daemon', async ({ tempDir }) => {
  const daemon = new LocalDaemon(tempDir, { configurationSource: store.source });
  await store.apply(daemon, testConfiguration(SERVER, { diskMiB: 1 }));
  await daemon.servers.create(SERVER);
  return daemon;
});

/** Everything below `dir`, relative, directories with a trailing `/`. */
function tree(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const st = fs.lstatSync(path.join(dir, n));
      return st.isDirectory() ? [`${prefix}${n}/`, ...tree(path.join(dir, n), `${prefix}${n}/`)] : [`${prefix}${n}`];
    });
}

describe('temporary files', () => {
  it('are out of reach of every client path, at every depth, as source or target', async ({ daemon }) => {
    const vol = daemon.volumePath(SERVER);
    fs.writeFileSync(path.join(vol, '.aerie-0123456789abcdef.part'), 'half a save');
    fs.mkdirSync(path.join(vol, 'sub', '.aerie-extract-00'), { recursive: true });
    fs.writeFileSync(path.join(vol, 'sub', '.aerie-extract-00', 'member.txt'), 'staged');
    fs.writeFileSync(path.join(vol, 'sub', 'visible.txt'), 'v');
    const before = tree(vol);
    const f = daemon.files;
    const part = '.aerie-0123456789abcdef.part';
    const staged = 'sub/.aerie-extract-00/member.txt';

    expect((await f.list(SERVER, '/')).map((e) => e.name)).toEqual(['sub']);
    expect((await f.list(SERVER, '/sub')).map((e) => e.name)).toEqual(['visible.txt']);
    const refusals = {
      list: await outcome(f.list(SERVER, 'sub/.aerie-extract-00')),
      read: await outcome(f.read(SERVER, part, MiB)),
      readDeep: await outcome(f.read(SERVER, staged, MiB)),
      open: await outcome(f.open(SERVER, `/${part}`)),
      write: await outcome(f.write(SERVER, part, Buffer.from('x'), { maxBytes: MiB })),
      writeNew: await outcome(f.write(SERVER, 'sub/.aerie-tmp/x.txt', Buffer.from('x'), { maxBytes: MiB })),
      uploadInto: await outcome(
        f.upload(SERVER, 'sub/.aerie-extract-00', uploads({ filename: 'x.txt', content: Buffer.from('x') }), { maxBytes: MiB }),
      ),
      uploadNamed: await outcome(f.upload(SERVER, '/', uploads({ filename: part, content: Buffer.from('x') }), { maxBytes: MiB })),
      copy: await outcome(f.copy(SERVER, staged)),
      delete: await outcome(f.delete(SERVER, '/', [part, 'sub/.aerie-extract-00'])),
      renameFrom: await outcome(f.rename(SERVER, '/', [{ from: part, to: 'mine.txt' }])),
      renameTo: await outcome(f.rename(SERVER, '/', [{ from: 'sub/visible.txt', to: 'sub/.aerie-extract-00/member.txt' }])),
      compress: await outcome(f.compress(SERVER, '/', [part], new Date())),
      decompress: await outcome(f.decompress(SERVER, '/sub', '.aerie-extract-00/member.txt')),
      mkdir: await outcome(f.createDirectory(SERVER, '/', '.aerie-tmp')),
    };
    expect(refusals).toEqual({
      list: 'not_found',
      read: 'not_found',
      readDeep: 'not_found',
      open: 'not_found',
      write: 'not_found',
      writeNew: 'not_found',
      uploadInto: 'not_found',
      uploadNamed: 'bad_request',
      copy: 'not_found',
      delete: 'not_found',
      renameFrom: 'not_found',
      renameTo: 'not_found',
      compress: 'not_found',
      decompress: 'not_found',
      mkdir: 'not_found',
    });
    expect(tree(vol)).toEqual(before);
    // A folder holding one is archived without it.
    await f.compress(SERVER, '/', ['sub'], new Date());
    expect(tree(vol).filter((n) => n.startsWith('archive-'))).toHaveLength(1);
  });

  it('refuses to place an upload one of whose temporary files was swapped meanwhile, storing none of it', async ({ daemon, tempDir }) => {
    const area = path.join(tempDir, 'volumes', '.aerie-tmp');
    const body = gatedStream();
    const files = uploads({ filename: 'readme.txt', content: Buffer.from('fine') }, { filename: 'plugin.jar', content: body.stream });
    const upload = daemon.files.upload(SERVER, '/', files, { maxBytes: MiB });
    body.push('the real plugin');
    const holding = () => fs.readdirSync(area).find((n) => fs.readFileSync(path.join(area, n), 'utf8') === 'the real plugin');
    await until(() => holding() !== undefined);
    const part = holding();
    if (part === undefined) throw new Error('no such file in the receive area');
    fs.unlinkSync(path.join(area, part));
    fs.writeFileSync(path.join(area, part), 'somebody else');
    body.end();
    expect(await outcome(upload)).toBe('conflict');
    expect(fs.readdirSync(daemon.volumePath(SERVER))).toEqual([]);
    expect(fs.readdirSync(area)).toEqual([]);
  });

  it('leaves nothing behind of an abandoned or refused body, and the server free for the next write', async ({ daemon, tempDir }) => {
    const area = path.join(tempDir, 'volumes', '.aerie-tmp');
    const gone = gatedStream();
    const write = daemon.files.write(SERVER, 'world.dat', gone.stream, { maxBytes: MiB });
    gone.push(Buffer.alloc(64 * 1024));
    await until(() => fs.readdirSync(area).length === 1);
    expect(fs.readdirSync(area)).toHaveLength(1);
    gone.fail(new Error('the client went away'));
    expect(await outcome(write)).not.toBe('ok');
    expect(fs.readdirSync(area)).toEqual([]);
    const big = gatedStream();
    const refused = daemon.files.write(SERVER, 'big.bin', big.stream, { maxBytes: 4 * MiB });
    big.push(Buffer.alloc(2 * MiB));
    expect(await outcome(refused)).toBe('no_space');
    expect(fs.readdirSync(area)).toEqual([]);
    await daemon.files.write(SERVER, 'after.txt', Buffer.from('x'), { maxBytes: MiB });
    expect(tree(daemon.volumePath(SERVER))).toEqual(['after.txt']);
  });

  it('left by a crash are swept when the serving daemon starts, at every depth, by their exact names only, links never followed', async ({
    daemon,
    tempDir,
  }) => {
    const vol = daemon.volumePath(SERVER);
    const area = path.join(tempDir, 'volumes', '.aerie-tmp');
    fs.mkdirSync(area, { recursive: true });
    fs.writeFileSync(path.join(area, '.aerie-00aa00aa00aa00aa.part'), 'half an upload');
    fs.mkdirSync(path.join(area, 'odd', 'deeper'), { recursive: true });
    fs.writeFileSync(path.join(vol, '.aerie-11bb11bb11bb11bb.part'), 'half a compress');
    fs.mkdirSync(path.join(vol, 'plugins', 'deep', '.aerie-extract-22cc22cc22cc22cc', 'x'), { recursive: true });
    fs.writeFileSync(path.join(vol, 'plugins', 'deep', '.aerie-extract-22cc22cc22cc22cc', 'x', 'a.jar'), 'staged');
    fs.writeFileSync(path.join(vol, 'plugins', 'deep', '.aerie-33dd33dd33dd33dd.part'), 'half a copy');
    fs.mkdirSync(path.join(vol, 'plugins', '.aerie-replaced-55ff55ff55ff55ff'));
    fs.writeFileSync(path.join(vol, 'plugins', '.aerie-replaced-55ff55ff55ff55ff', '1'), 'what an extraction replaced');
    const outside = path.join(tempDir, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'KEEP');
    fs.symlinkSync(outside, path.join(vol, '.aerie-extract-44ee44ee44ee44ee'));
    fs.symlinkSync(outside, path.join(vol, 'plugins', 'linked'));
    // Files the server's own process made: not the daemon's names, so they stay (hidden from clients).
    fs.writeFileSync(path.join(vol, '.aerie-notes'), 'made by the game');
    fs.writeFileSync(path.join(vol, 'plugins', 'deep', 'aerie-00aa00aa00aa00aa.part'), 'user file');

    // Another process on the data dir (the admin CLI) leaves them alone: they may be a running write's.
    const cli = new LocalDaemon(tempDir, { configurationSource: store.source });
    await store.apply(cli, testConfiguration(SERVER));
    await cli.files.write(SERVER, 'from-cli.txt', Buffer.from('x'), { maxBytes: MiB });
    expect(fs.readdirSync(area)).toContain('.aerie-00aa00aa00aa00aa.part');
    expect(tree(vol)).toContain('plugins/deep/.aerie-extract-22cc22cc22cc22cc/x/a.jar');
    fs.rmSync(path.join(vol, 'from-cli.txt'));

    const restarted = new LocalDaemon(tempDir, { configurationSource: store.source });
    restarted.sweepLeftovers();
    await store.apply(restarted, testConfiguration(SERVER));
    // A write waits for the sweep of its volume.
    await restarted.files.write(SERVER, 'after.txt', Buffer.from('x'), { maxBytes: MiB });
    expect(tree(vol)).toEqual([
      '.aerie-notes',
      'after.txt',
      'plugins/',
      'plugins/deep/',
      'plugins/deep/aerie-00aa00aa00aa00aa.part',
      'plugins/linked',
    ]);
    expect(fs.readdirSync(area)).toEqual([]);
    expect(tree(outside)).toEqual(['keep.txt']);
  });
});
