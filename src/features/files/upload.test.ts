// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_IDLE_MS, uploadFile } from './upload';

/** Just enough of XMLHttpRequest to drive an upload's progress by hand. */
class FakeXhr {
  static last: FakeXhr | null = null;
  static sent = 0;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  onprogress: (() => void) | null = null;
  onloadend: (() => void) | null = null;
  status = 0;
  responseText = '';
  constructor() {
    FakeXhr.last = this;
  }
  open() {}
  setRequestHeader() {}
  send() {
    FakeXhr.sent += 1;
  }
  abort() {
    this.onabort?.();
    this.onloadend?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function start() {
  vi.useFakeTimers();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  const handle = uploadFile(
    () => Promise.resolve({ url: '/upload/file?token=t', maxFileBytes: undefined }),
    new File(['x'], 'x.txt'),
    () => undefined,
  );
  let outcome: unknown = 'pending';
  handle.done.then(
    () => (outcome = 'done'),
    (e: unknown) => (outcome = e),
  );
  await vi.advanceTimersByTimeAsync(0);
  return { handle, outcome: () => outcome, xhr: FakeXhr.last as FakeXhr };
}

describe('uploadFile', () => {
  it('keeps a slow upload going for as long as bytes move', async () => {
    const { outcome, xhr } = await start();
    for (let i = 1; i <= 5; i += 1) {
      await vi.advanceTimersByTimeAsync(UPLOAD_IDLE_MS - 1000);
      xhr.progress(i, 10);
    }
    expect(outcome()).toBe('pending');
  });

  it('fails with a clear message once nothing has moved for the idle limit', async () => {
    const { outcome, xhr } = await start();
    xhr.progress(1, 10);
    await vi.advanceTimersByTimeAsync(UPLOAD_IDLE_MS);
    expect(outcome()).toMatchObject({ code: 'Timeout', message: expect.stringMatching(/upload stalled/) });
  });

  it('reports a cancel as a cancel', async () => {
    const { handle, outcome } = await start();
    handle.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome()).toMatchObject({ name: 'AbortError' });
  });
});

describe('a file over the limit', () => {
  // Issue 22 #5: before, the whole file went over the wire and the node refused it, without a number.
  it('is refused before a byte is sent, naming the limit in MiB and the SFTP address', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.sent = 0;
    const file = new File([new Uint8Array(3 * 1024 * 1024)], 'world.zip');
    const handle = uploadFile(
      () => Promise.resolve({ url: '/upload/file?token=t', maxFileBytes: 2 * 1024 * 1024 }),
      file,
      () => undefined,
      { sftpAddress: 'sftp://node.example:2022' },
    );
    await expect(handle.done).rejects.toMatchObject({
      status: 413,
      message: 'The file is larger than the 2 MiB upload limit. Upload it over SFTP instead (sftp://node.example:2022).',
    });
    expect(FakeXhr.sent).toBe(0);
  });

  it('at the limit is sent', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.sent = 0;
    const handle = uploadFile(
      () => Promise.resolve({ url: '/upload/file?token=t', maxFileBytes: 1 }),
      new File(['x'], 'x.txt'),
      () => undefined,
    );
    await vi.waitFor(() => expect(FakeXhr.sent).toBe(1));
    handle.abort();
    await expect(handle.done).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('a file over the whole disk limit', () => {
  it('is refused without asking for a link or sending a byte', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.sent = 0;
    const link = vi.fn(() => Promise.resolve({ url: '/upload/file?token=t', maxFileBytes: undefined }));
    const handle = uploadFile(link, new File([new Uint8Array(2 * 1024 * 1024)], 'world.zip'), () => undefined, { diskBytes: 1024 * 1024 });
    await expect(handle.done).rejects.toMatchObject({ status: 400, message: "The file is larger than this server's whole disk limit (1 MiB)." });
    expect(link).not.toHaveBeenCalled();
    expect(FakeXhr.sent).toBe(0);
  });
});
