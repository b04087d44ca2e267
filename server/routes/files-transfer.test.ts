import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFileFixture, type FileFixture } from './files-test-support';

let f: FileFixture;
beforeEach(async () => {
  f = await makeFileFixture();
});
afterEach(async () => {
  await f.close();
});

describe('files/download and files/upload', () => {
  it('downloads a file as an attachment and logs server:file.download', async () => {
    f.put('logs/latest.log', 'line\n');
    const res = await f.call('GET', 'download', { query: { file: 'logs/latest.log' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="latest.log"; filename*=UTF-8''latest.log`);
    expect(res.body).toBe('line\n');
    expect(await f.events()).toEqual([{ event: 'server:file.download', properties: { file: 'logs/latest.log' } }]);
  });

  it('never lets a file name inject a header', async () => {
    f.put('a";\r\nX-Injected: 1 é.txt', 'x');
    const res = await f.call('GET', 'download', { query: { file: 'a";\r\nX-Injected: 1 é.txt' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-injected']).toBeUndefined();
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="a____X-Injected_ 1 _.txt"; filename*=UTF-8''a%22%3B%0D%0AX-Injected%3A%201%20%C3%A9.txt`,
    );
  });

  it('answers 404 for a missing file and 400 for a directory, and downloads an empty file', async () => {
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
  const boundary = 'aerieBoundary';
  function form(files: { name: string; content: string }[]) {
    const parts = files.map(
      (p) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${p.name}"\r\nContent-Type: application/octet-stream\r\n\r\n${p.content}\r\n`,
    );
    return { raw: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }

  it('stores several files in the directory and logs server:file.upload', async () => {
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
    expect(await f.events()).toEqual([{ event: 'server:file.upload', properties: { directory: '/plugins', files: ['a.jar', 'old.jar'] } }]);
  });

  it('answers 413 past the size limit with nothing stored, 400 without a multipart body, 404 for a missing directory', async () => {
    await f.close();
    f = await makeFileFixture({ maxUploadBytes: 8 });
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
});
