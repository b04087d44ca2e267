// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_IDLE_MS, uploadFile } from './upload';

/** Just enough of XMLHttpRequest to drive an upload's progress by hand. */
class FakeXhr {
  static last: FakeXhr | null = null;
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
  send() {}
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
    () => Promise.resolve('/upload/file?token=t'),
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
