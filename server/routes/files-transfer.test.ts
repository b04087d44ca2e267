import fs from 'node:fs';
import { describe, expect, vi } from 'vitest';
import { nodePath } from '../test/files-support';
import { it as base } from '../test/fixtures';

const it = base
  /** Asks the panel for a signed download link for `file`. */
  .extend('download', async ({ files: f }) => {
    return (file: string, headers = f.ownerHeaders) =>
      f.panel.app.inject({ method: 'GET', url: `/api/client/servers/${f.s1.uuid}/files/download?file=${encodeURIComponent(file)}`, headers });
  })
  /** Asks the panel for a signed upload link. */
  .extend('uploadLink', async ({ files: f }) => {
    return (headers = f.ownerHeaders) => f.panel.app.inject({ method: 'GET', url: `/api/client/servers/${f.s1.uuid}/files/upload`, headers });
  })
  /** Follows a signed link to the node, with no credentials. */
  .extend('follow', async ({ files: f }) => {
    return (res: { json: () => unknown }, method: 'GET' | 'POST' = 'GET', extra = '') =>
      f.panel.app.inject({ method, url: nodePath(res.json() as { attributes: { url: string } }) + extra });
  });

describe('files/download and files/upload', () => {
  // attacks T-XSS-5
  it('downloads a file as an attachment and logs server:file.download', async ({ files: f }) => {
    f.put('logs/latest.log', 'line\n');
    const res = await f.call('GET', 'download', { query: { file: 'logs/latest.log' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="latest.log"; filename*=UTF-8''latest.log`);
    expect(res.body).toBe('line\n');
    expect(await f.events()).toEqual([{ event: 'server:file.download', properties: { file: 'logs/latest.log' } }]);
  });

  // attacks T-XSS-5
  it('never lets a file name inject a header', async ({ files: f }) => {
    f.put('a";\r\nX-Injected: 1 é.txt', 'x');
    const res = await f.call('GET', 'download', { query: { file: 'a";\r\nX-Injected: 1 é.txt' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-injected']).toBeUndefined();
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="a____X-Injected_ 1 _.txt"; filename*=UTF-8''a%22%3B%0D%0AX-Injected%3A%201%20%C3%A9.txt`,
    );
  });

  it('answers 404 for a missing file and 400 for a directory, and downloads an empty file', async ({ files: f }) => {
    f.put('dir/x');
    f.put('empty.txt', '');
    const empty = await f.call('GET', 'download', { query: { file: 'empty.txt' } });
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toBe('');
    expect((await f.call('GET', 'download', { query: { file: 'nope' } })).statusCode).toBe(404);
    expect((await f.call('GET', 'download', { query: { file: 'dir' } })).statusCode).toBe(400);
  });
});

describe('files/upload', () => {
  // Issue 22 #5: the SPA refuses a file over the limit before sending a byte, so it must know it.
  it("hands out the node's upload limit with the link", async ({ uploadLink }) => {
    const res = await uploadLink();
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes.max_file_bytes).toBe(100 * 1024 * 1024);
  });

  const boundary = 'aerieBoundary';
  function form(files: { name: string; content: string }[]) {
    const parts = files.map(
      (p) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${p.name}"\r\nContent-Type: application/octet-stream\r\n\r\n${p.content}\r\n`,
    );
    return { raw: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }

  // One server:file.uploaded per file, as Wings reports it; the panel's old single server:file.upload
  // entry was one the reference hides from every activity page, so uploads never showed.
  it('stores several files in the directory and logs server:file.uploaded for each', async ({ files: f }) => {
    f.put('plugins/old.jar', 'old');
    const res = await f.call('POST', 'upload', {
      query: { directory: '/plugins' },
      ...form([
        { name: 'a.jar', content: 'A' },
        { name: 'old.jar', content: 'new' },
      ]),
    });
    expect(res.statusCode).toBe(204);
    expect(f.read('plugins/a.jar') + f.read('plugins/old.jar')).toBe('Anew');
    // The node reports the uploads back to the panel, which writes them a moment later.
    await vi.waitFor(async () =>
      expect(await f.events()).toEqual([
        { event: 'server:file.uploaded', properties: { directory: '/plugins', file: 'a.jar' } },
        { event: 'server:file.uploaded', properties: { directory: '/plugins', file: 'old.jar' } },
      ]),
    );
  });

  it('answers 413 past the size limit with nothing stored, 400 without a multipart body, 404 for a missing directory', async ({ makeFiles }) => {
    const f = await makeFiles({ maxUploadBytes: 8 });
    const res = await f.call('POST', 'upload', {
      query: { directory: '/' },
      ...form([
        { name: 'ok.txt', content: 'small' },
        { name: 'big.txt', content: '123456789' },
      ]),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().errors[0].code).toBe('PayloadTooLargeHttpException');
    expect(fs.readdirSync(f.v1)).toEqual([]);
    expect((await f.call('POST', 'upload', { query: { directory: '/' }, body: { files: [] } })).statusCode).toBe(400);
    expect((await f.call('POST', 'upload', { query: { directory: '/missing' }, ...form([{ name: 'a', content: 'a' }]) })).statusCode).toBe(404);
    expect((await f.call('POST', 'upload', { query: { directory: '/' }, raw: `--${boundary}--\r\n`, headers: form([]).headers })).statusCode).toBe(
      400,
    );
    expect(await f.events()).toEqual([]);
  });

  // Issue 22 #5: the refusal used to say only "larger than the allowed upload size".
  it('names the limit in MiB and SFTP when a file is over it', async ({ makeFiles }) => {
    const f = await makeFiles({ maxUploadBytes: 1024 * 1024 });
    const res = await f.call('POST', 'upload', { query: { directory: '/' }, ...form([{ name: 'big.bin', content: 'x'.repeat(1024 * 1024 + 1) }]) });
    expect(res.statusCode).toBe(413);
    expect(res.json().errors[0].detail).toBe('The file is larger than the 1 MiB upload limit. Upload it over SFTP instead.');
    expect(fs.readdirSync(f.v1)).toEqual([]);
  });
});

describe('signed transfer links', () => {
  it('point at the local node on the panel origin, as signed_url documents', async ({ download, uploadLink }) => {
    const res = await download('a.txt');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      object: 'signed_url',
      attributes: { url: expect.stringMatching(/^http:\/\/localhost:80\/download\/file\?token=[\w-]+\.[\w-]+\.[\w-]+$/) },
    });
    const up = await uploadLink();
    expect(up.json().attributes.url).toMatch(/^http:\/\/localhost:80\/upload\/file\?token=/);
  });

  it('work once: a second download with the same link is refused', async ({ files: f, download, follow }) => {
    f.put('a.txt', 'A');
    const link = await download('a.txt');
    expect((await follow(link)).body).toBe('A');
    const again = await follow(link);
    expect(again.statusCode).toBe(403);
    expect(again.json().errors[0].code).toBe('AccessDeniedHttpException');
  });

  it('stop working after 15 minutes', async ({ files: f, download, follow }) => {
    f.put('a.txt', 'A');
    const link = await download('a.txt');
    f.panel.clock.advance(15 * 60_000 + 1000);
    expect((await follow(link)).statusCode).toBe(403);
  });

  it('cannot be altered, nor a download link used to upload', async ({ files: f, download }) => {
    f.put('a.txt', 'A');
    const link = await download('a.txt');
    const url = nodePath(link.json());
    const [head, payload, signature] = (new URL(`http://x${url}`).searchParams.get('token') ?? '').split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, server_uuid: f.s2.uuid, file_path: 'canary.txt' })).toString('base64url');
    const res = await f.panel.app.inject({ method: 'GET', url: `/download/file?token=${head}.${forged}.${signature}` });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('CANARY');
    const asUpload = await f.panel.app.inject({ method: 'POST', url: url.replace('/download/file', '/upload/file') });
    expect(asUpload.statusCode).toBe(403);
    expect((await f.panel.app.inject({ method: 'GET', url: '/download/file' })).statusCode).toBe(403);
  });

  it('log the download when the link is handed out, and need no session to follow', async ({ files: f, download }) => {
    f.put('a.txt', 'A');
    const link = await download('a.txt');
    expect(await f.events()).toEqual([{ event: 'server:file.download', properties: { file: 'a.txt' } }]);
    const res = await f.panel.app.inject({ method: 'GET', url: nodePath(link.json()), headers: { cookie: 'nothing=here' } });
    expect(res.statusCode).toBe(200);
  });

  it('upload into the directory given with the link, once', async ({ files: f, uploadLink }) => {
    const boundary = 'b';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="x.txt"\r\n\r\nX\r\n--${boundary}--\r\n`;
    f.put('dir/.keep', '');
    const link = await uploadLink();
    const post = () =>
      f.panel.app.inject({
        method: 'POST',
        url: `${nodePath(link.json())}&directory=/dir`,
        payload: body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    expect((await post()).statusCode).toBe(204);
    expect(f.read('dir/x.txt')).toBe('X');
    expect((await post()).statusCode).toBe(403);
  });
});
