import { describe, expect, vi } from 'vitest';
import { activityLogListSchema } from '../../src/contract';
import { it } from '../test/fixtures';

/*
 * The audit entries of deletes and renames say what happened: names of files that were not there
 * are left out (and no entry at all when nothing was there), and a move reads as plain paths.
 */

describe('files/delete activity', () => {
  it('logs only the files that existed', async ({ files: f }) => {
    f.put('a.txt');
    expect((await f.call('POST', 'delete', { body: { root: '/', files: ['ghost.txt', 'a.txt', 'other-ghost'] } })).statusCode).toBe(204);
    expect(await f.events()).toEqual([{ event: 'server:file.delete', properties: { directory: '/', files: ['a.txt'] } }]);
  });

  it('writes no entry when none of the files existed', async ({ files: f }) => {
    f.put('dir/keep.txt');
    expect((await f.call('POST', 'delete', { body: { root: '/dir', files: ['ghost.txt', 'nope'] } })).statusCode).toBe(204);
    expect(await f.events()).toEqual([]);
  });
});

describe('files/rename activity', () => {
  it('writes no entry when none of the sources existed', async ({ files: f }) => {
    expect((await f.call('PUT', 'rename', { body: { root: '/', files: [{ from: 'ghost.txt', to: 'b.txt' }] } })).statusCode).toBe(204);
    expect(await f.events()).toEqual([]);
  });

  it('logs a move into another folder with plain paths, no ../ and no doubled slashes', async ({ files: f }) => {
    f.put('worlds/world.zip', 'w');
    f.put('backups/.keep');
    const files = [{ from: 'world.zip', to: '../backups//world.zip' }];
    expect((await f.call('PUT', 'rename', { body: { root: '/worlds/', files } })).statusCode).toBe(204);
    expect(f.read('backups/world.zip')).toBe('w');
    expect(await f.events()).toEqual([
      { event: 'server:file.rename', properties: { directory: '/', files: [{ from: 'worlds/world.zip', to: 'backups/world.zip' }] } },
    ]);
  });

  it('keeps the folder of a rename in place and of a move into a subfolder', async ({ files: f }) => {
    f.put('cfg/a.yml');
    f.put('cfg/b.yml');
    const files = [
      { from: 'a.yml', to: 'renamed.yml' },
      { from: './b.yml', to: 'old//b.yml' },
    ];
    expect((await f.call('PUT', 'rename', { body: { root: '//cfg', files } })).statusCode).toBe(204);
    const expected = [
      { from: 'a.yml', to: 'renamed.yml' },
      { from: 'b.yml', to: 'old/b.yml' },
    ];
    expect(await f.events()).toEqual([{ event: 'server:file.rename', properties: { directory: '/cfg', files: expected } }]);
  });
});

describe('upload activity', () => {
  it('logs server:file.uploaded with the folder the file was stored in', async ({ files: f }) => {
    f.put('plugins/.keep');
    const boundary = 'activity-boundary';
    const raw = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.jar"\r\nContent-Type: application/octet-stream\r\n\r\nA\r\n--${boundary}--\r\n`;
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    expect((await f.call('POST', 'upload', { query: { directory: '/x/..//plugins/' }, raw, headers })).statusCode).toBe(204);
    expect(f.read('plugins/a.jar')).toBe('A');
    await vi.waitFor(async () =>
      expect(await f.events()).toEqual([{ event: 'server:file.uploaded', properties: { directory: '/plugins', file: 'a.jar' } }]),
    );
  });
});

// attacks T-DOS-2 (one entry per action, capped properties)
describe('activity properties of a large action', () => {
  it('are stored capped and still count every file', async ({ files: f }) => {
    const names = Array.from({ length: 1_000 }, (_, i) => `chunk-${String(i).padStart(4, '0')}.dat`);
    for (const name of names) f.put(`cache/${name}`);
    expect((await f.call('POST', 'delete', { body: { root: '/cache', files: names } })).statusCode).toBe(204);
    const row = await f.panel.db.selectFrom('activity_logs').select('properties').executeTakeFirstOrThrow();
    expect(Buffer.byteLength(row.properties)).toBeLessThanOrEqual(8 * 1024);
    const res = await f.panel.app.inject({ method: 'GET', url: `/api/client/servers/${f.s1.uuid}/activity`, headers: f.ownerHeaders });
    const properties = activityLogListSchema.parse(res.json()).data[0]?.attributes.properties;
    expect(properties).toMatchObject({ directory: '/cache/', count: 1_000 });
    expect(names.slice(0, 10).every((n) => (properties?.files as string[]).includes(n))).toBe(true);
  });
});
