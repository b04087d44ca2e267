import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect } from 'vitest';
import { CANARY_HOST, CANARY_S2, expectRefused } from '../test/files-support';
import { it } from '../test/fixtures';

/*
 * No file endpoint reaches outside S1's volume: not by traversal in any path field, not through
 * links a tenant planted, not by deleting through a link, and the volume's root itself can be
 * neither renamed nor deleted. Every refusal is a 4xx error document without canary bytes, and
 * nothing outside S1's volume changes.
 */

/** What lies outside S1, taken before each test (and again once links are planted). */
let before: Record<string, string>;
it.beforeEach(({ files: f }) => {
  f.put('a.txt', 'A');
  f.put('dir/b.txt', 'B');
  before = f.snapshot();
});
it.afterEach(({ files: f }) => {
  expect(f.snapshot()).toEqual(before);
});

const boundary = 'aerieBoundary';
function multipart(filename: string, content = 'UP'): { raw: string; headers: Record<string, string> } {
  return {
    raw: `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

// attacks T-FS-1 (there is no files/pull nor files/chmod route; SFTP's chmod is in sftp-attacks.test.ts, T-FS-7)
describe('traversal in every path field', () => {
  const escapes = (s2: string) => [
    `../${s2}/canary.txt`,
    '../../host/canary.txt',
    '../../../../../../../../etc/passwd',
    `/../${s2}/canary.txt`,
    `a/../../${s2}/canary.txt`,
    `./../${s2}/canary.txt`,
    '..',
    '/..',
    '/../..',
  ];

  it('refuses escapes in list, contents, download and write with the missing-file 404', async ({ files: f }) => {
    const missing = await f.call('GET', 'contents', { query: { file: 'does-not-exist' } });
    for (const p of escapes(f.s2.uuid)) {
      for (const [method, endpoint, field] of [
        ['GET', 'list', 'directory'],
        ['GET', 'contents', 'file'],
        ['GET', 'download', 'file'],
        ['POST', 'write', 'file'],
      ] as const) {
        const res = await f.call(method, endpoint, { query: { [field]: p }, raw: method === 'POST' ? 'PWNED' : undefined });
        expectRefused(res, endpoint === 'write' && (p === '..' || p === '/..' || p === '/../..') ? [404] : 404);
        expect(res.body).toBe(missing.body); // no existence oracle
      }
    }
  });

  it('refuses escapes in every JSON path field', async ({ files: f }) => {
    for (const p of escapes(f.s2.uuid)) {
      const bodies: [string, 'POST' | 'PUT', unknown][] = [
        ['copy', 'POST', { location: p }],
        ['delete', 'POST', { root: p, files: ['canary.txt'] }],
        ['delete', 'POST', { root: '/', files: [p] }],
        ['create-folder', 'POST', { root: p, name: 'x' }],
        ['create-folder', 'POST', { root: '/', name: `${p}/x` }],
        ['rename', 'PUT', { root: p, files: [{ from: 'canary.txt', to: 'stolen.txt' }] }],
        ['rename', 'PUT', { root: '/', files: [{ from: p, to: 'stolen.txt' }] }],
        ['rename', 'PUT', { root: '/', files: [{ from: 'a.txt', to: `${p}/planted.txt` }] }],
        ['rename', 'PUT', { root: '/', files: [{ from: 'a.txt', to: p }] }],
        ['compress', 'POST', { root: p, files: ['canary.txt'] }],
        ['compress', 'POST', { root: '/', files: [p] }],
        ['decompress', 'POST', { root: p, file: 'a.txt' }],
        ['decompress', 'POST', { root: '/', file: p }],
      ];
      for (const [endpoint, method, body] of bodies) {
        const res = await f.call(method, endpoint, { body });
        expectRefused(res, [400, 404]);
      }
    }
    expect(f.read('a.txt')).toBe('A');
    expect(fs.readdirSync(f.v1).sort()).toEqual(['a.txt', 'dir']);
  });

  it('refuses escapes in the upload directory and strips the upload file name to its base name', async ({ files: f }) => {
    for (const p of escapes(f.s2.uuid)) {
      expectRefused(await f.call('POST', 'upload', { query: { directory: p }, ...multipart('x.txt') }));
    }
    const res = await f.call('POST', 'upload', { query: { directory: '/dir' }, ...multipart(`../../${f.s2.uuid}/canary.txt`, 'MINE') });
    expect(res.statusCode).toBe(204);
    expect(f.read('dir/canary.txt')).toBe('MINE');
    for (const bad of ['..', '.', '../..', '/']) {
      expectRefused(await f.call('POST', 'upload', { query: { directory: '/' }, ...multipart(bad) }), [400]);
    }
  });

  it('decodes exactly once: percent-encoded separators never become ../', async ({ files: f }) => {
    const s2 = f.s2.uuid;
    for (const q of [
      `file=%2e%2e%2f${s2}%2fcanary.txt`,
      `file=..%2f${s2}%2fcanary.txt`,
      `file=%252e%252e%252f${s2}%252fcanary.txt`,
      `file=%2E%2e/${s2}/canary.txt`,
      `file=..%5c${s2}%5ccanary.txt`,
      `file=..%00/${s2}/canary.txt`,
      `file=%c0%ae%c0%ae%c0%af${s2}/canary.txt`,
      `file=a.txt&file=../${s2}/canary.txt`,
      `file[]=../${s2}/canary.txt`,
    ]) {
      for (const endpoint of ['contents', 'download']) {
        expectRefused(await f.call('GET', endpoint, { query: q }), [404, 422]);
      }
      // Either refused, or a strangely named file inside S1 (the snapshot proves nothing outside changed).
      const write = await f.call('POST', 'write', { query: q, raw: 'PWNED' });
      if (write.statusCode !== 204) expectRefused(write, [404, 422]);
    }
    // A literally named `%2e%2e%2f…` or `..\…` file is just a strange name inside the volume (beside them: the daemon's receive area).
    expect(fs.readdirSync(path.join(f.v1, '..')).sort()).toEqual(['.aerie-tmp', f.s1.uuid, f.s2.uuid].sort());
  });

  it('treats absolute paths as rooted at the volume', async ({ files: f }) => {
    const passwd = fs.readFileSync('/etc/passwd');
    expectRefused(await f.call('GET', 'contents', { query: { file: '/etc/passwd' } }));
    expectRefused(await f.call('GET', 'list', { query: { directory: '/etc' } }));
    expectRefused(await f.call('GET', 'contents', { query: { file: '//etc/passwd' } }));
    expectRefused(await f.call('GET', 'contents', { query: { file: '/proc/self/environ' } }));
    expect((await f.call('POST', 'write', { query: { file: '/etc/passwd' }, raw: 'inside' })).statusCode).toBe(204);
    expect(f.read('etc/passwd')).toBe('inside');
    expect(fs.readFileSync('/etc/passwd')).toEqual(passwd);
    expect((await f.call('GET', 'contents', { query: { file: '/dir/../a.txt' } })).body).toBe('A');
  });

  it('rejects NUL bytes in JSON paths with 422 and in query paths with 404', async ({ files: f }) => {
    expectRefused(await f.call('POST', 'copy', { body: { location: 'a.txt\u0000../../x' } }), 422);
    expectRefused(await f.call('GET', 'contents', { query: { file: 'a.txt\u0000' } }), 404);
  });
});

describe('planted links', () => {
  it.beforeEach(({ files: f }) => {
    f.link('L', path.join(f.v2, 'canary.txt'));
    f.link('LH', f.hostCanary);
    f.link('DL', f.v2);
    f.link('HD', f.hostDir);
    f.link('ETC', '/etc');
    f.link('D', '/nonexistent-aerie/outside/new.txt');
    f.link('C1', 'C2');
    f.link('C2', '/nonexistent-aerie/chain.txt');
    f.link('REL', `../${f.s2.uuid}/canary.txt`);
    before = f.snapshot();
  });

  it('lists links as links without following them', async ({ files: f }) => {
    const res = await f.call('GET', 'list');
    const entries = res.json().data.map((e: { attributes: { name: string; is_symlink: boolean } }) => e.attributes);
    expect(
      entries
        .filter((e: { is_symlink: boolean }) => e.is_symlink)
        .map((e: { name: string }) => e.name)
        .sort(),
    ).toEqual(['C1', 'C2', 'D', 'DL', 'ETC', 'HD', 'L', 'LH', 'REL'].sort());
    expect(res.body).not.toContain(CANARY_S2);
  });

  it('never reads, lists or downloads through a link', async ({ files: f }) => {
    for (const file of ['L', 'LH', 'REL', 'ETC/passwd', 'DL/canary.txt', 'HD/canary.txt', 'C1', 'D']) {
      expectRefused(await f.call('GET', 'contents', { query: { file } }));
      expectRefused(await f.call('GET', 'download', { query: { file } }));
    }
    for (const directory of ['DL', 'ETC', 'HD', 'DL/sub', 'L']) {
      expectRefused(await f.call('GET', 'list', { query: { directory } }));
    }
  });

  it('never writes or creates through a link (target, dangling, chained, parent)', async ({ files: f }) => {
    const probe = `aerie-probe-${process.pid}`;
    for (const file of ['L', 'LH', 'REL', 'D', 'C1', 'DL/new.txt', 'HD/new.txt', `ETC/${probe}`, 'DL/sub/new.txt']) {
      expectRefused(await f.call('POST', 'write', { query: { file }, raw: 'PWNED' }));
    }
    expect(fs.existsSync(`/etc/${probe}`)).toBe(false);
    expect(fs.existsSync('/nonexistent-aerie')).toBe(false);
    for (const body of [
      { root: '/DL', name: 'x' },
      { root: '/', name: 'DL/x' },
      { root: '/HD', name: 'x' },
      { root: '/D', name: 'x' },
    ]) {
      expectRefused(await f.call('POST', 'create-folder', { body }), [400, 404]);
    }
    expectRefused(await f.call('POST', 'upload', { query: { directory: '/DL' }, ...multipart('x.txt') }));
    expectRefused(await f.call('POST', 'upload', { query: { directory: '/' }, ...multipart('L') }));
  });

  it('never copies, renames or moves through a link', async ({ files: f }) => {
    for (const location of ['L', 'LH', 'DL/canary.txt', 'HD/canary.txt']) {
      expectRefused(await f.call('POST', 'copy', { body: { location } }));
    }
    for (const files of [
      [{ from: 'a.txt', to: 'DL/a.txt' }],
      [{ from: 'a.txt', to: 'HD/a.txt' }],
      [{ from: 'DL/canary.txt', to: 'stolen.txt' }],
      [{ from: 'HD/canary.txt', to: 'stolen.txt' }],
    ]) {
      expectRefused(await f.call('PUT', 'rename', { body: { root: '/', files } }));
    }
    expectRefused(await f.call('PUT', 'rename', { body: { root: '/DL', files: [{ from: 'canary.txt', to: 'x.txt' }] } }));
    expect(f.read('a.txt')).toBe('A');
  });

  it('renames a link itself inside the volume', async ({ files: f }) => {
    const res = await f.call('PUT', 'rename', { body: { root: '/', files: [{ from: 'L', to: 'L2' }] } });
    expect(res.statusCode).toBe(204);
    expect(fs.readlinkSync(path.join(f.v1, 'L2'))).toBe(path.join(f.v2, 'canary.txt'));
  });

  it('compresses links as nothing: never the target content', async ({ files: f }) => {
    const res = await f.call('POST', 'compress', { body: { root: '/', files: ['L', 'LH', 'DL', 'HD', 'ETC', 'a.txt'] } });
    expect(res.statusCode).toBe(200);
    const archive = fs.readFileSync(path.join(f.v1, res.json().attributes.name));
    const tarBytes = zlib.gunzipSync(archive).toString('latin1');
    expect(tarBytes).not.toContain(CANARY_S2);
    expect(tarBytes).not.toContain(CANARY_HOST);
    expect(tarBytes).not.toContain('root:x:0:0');
    expect(tarBytes).toContain('a.txt');
    expectRefused(await f.call('POST', 'compress', { body: { root: '/DL', files: ['canary.txt'] } }));
    expectRefused(await f.call('POST', 'compress', { body: { root: '/', files: ['DL/canary.txt'] } }));
  });

  it('never decompresses an archive reached through a link', async ({ files: f }) => {
    fs.writeFileSync(path.join(f.v2, 'backup.tar.gz'), zlib.gzipSync(Buffer.alloc(1024)));
    f.link('ARC', path.join(f.v2, 'backup.tar.gz'));
    before = f.snapshot();
    expectRefused(await f.call('POST', 'decompress', { body: { root: '/', file: 'ARC' } }));
    expectRefused(await f.call('POST', 'decompress', { body: { root: '/DL', file: 'backup.tar.gz' } }));
    expectRefused(await f.call('POST', 'decompress', { body: { root: '/', file: `../${f.s2.uuid}/backup.tar.gz` } }));
  });
});

// attacks T-FS-3 (delete through links) and T-FS-4 (root protection)
describe('delete through links and root protection', () => {
  it.beforeEach(({ files: f }) => {
    f.link('L', path.join(f.v2, 'canary.txt'));
    f.link('DL', f.v2);
    f.link('ETC', '/etc');
    before = f.snapshot();
  });

  it('deleting a link removes only the link', async ({ files: f }) => {
    const res = await f.call('POST', 'delete', { body: { root: '/', files: ['L', 'DL', 'ETC'] } });
    expect(res.statusCode).toBe(204);
    expect(['L', 'DL', 'ETC'].some((n) => fs.existsSync(path.join(f.v1, n)))).toBe(false);
    expect(fs.existsSync('/etc/passwd')).toBe(true);
  });

  it('refuses to delete below a link, and changes nothing when one entry is hostile', async ({ files: f }) => {
    expectRefused(await f.call('POST', 'delete', { body: { root: '/DL', files: ['canary.txt'] } }));
    expectRefused(await f.call('POST', 'delete', { body: { root: '/', files: ['DL/canary.txt'] } }));
    expectRefused(await f.call('POST', 'delete', { body: { root: '/', files: ['a.txt', `../${f.s2.uuid}/canary.txt`] } }));
    expectRefused(await f.call('POST', 'delete', { body: { root: '/', files: ['a.txt', 'DL/sub'] } }));
    expect(f.read('a.txt')).toBe('A');
  });

  it('never deletes or renames the volume root', async ({ files: f }) => {
    for (const body of [
      { root: '/', files: [''] },
      { root: '/', files: ['.'] },
      { root: '/', files: ['/'] },
      { root: '/', files: ['..'] },
      { root: '/dir', files: ['..'] },
    ]) {
      expectRefused(await f.call('POST', 'delete', { body }), [400, 404, 422]);
    }
    for (const files of [[{ from: '.', to: 'x' }], [{ from: 'a.txt', to: '..' }], [{ from: 'dir', to: 'dir/sub/deeper' }]]) {
      expectRefused(await f.call('PUT', 'rename', { body: { root: '/', files } }), [400, 404]);
    }
    expect(fs.readdirSync(f.v1).sort()).toEqual(['DL', 'ETC', 'L', 'a.txt', 'dir']);
  });
});
