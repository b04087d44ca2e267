// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { uploadFile } from './upload';

/*
 * The SPA's side of chunked uploads, against a scripted node: what it sends, and how it carries
 * on after a failed chunk. The node's side is server/routes/files-upload-chunked.test.ts.
 */

interface Sent {
  method: string;
  url: string;
  range: string | undefined;
  size: number;
}

/** The node: takes chunks in order, keeps `keep` bytes of a chunk it is told to cut. */
class Node {
  offset = 0;
  sent: Sent[] = [];
  /** Chunk requests (by index among PUTs with a body) that fail on the way, keeping this many bytes. */
  cuts = new Map<number, number>();
  /** Answers to give instead, by index among PUTs with a body. */
  refusals = new Map<number, { status: number; body: string }>();
  private puts = 0;
  constructor(readonly total: number) {}

  answer(req: Sent): { status: number; body: string } | 'network-error' {
    if (req.method === 'POST') return { status: 201, body: JSON.stringify({ upload_id: 'u1', offset: 0, chunk_bytes: 4 }) };
    if (req.range === `bytes */${this.total}`) return { status: 200, body: JSON.stringify({ offset: this.offset, complete: false }) };
    const index = this.puts;
    this.puts += 1;
    const refusal = this.refusals.get(index);
    if (refusal) return refusal;
    const [, start] = /^bytes (\d+)-/.exec(req.range ?? '') ?? [];
    if (Number(start) !== this.offset) return { status: 409, body: '{"errors":[{"code":"x","status":"409","detail":"out of order"}]}' };
    const cut = this.cuts.get(index);
    if (cut !== undefined) {
      this.offset += cut;
      return 'network-error';
    }
    this.offset += req.size;
    return { status: 200, body: JSON.stringify({ offset: this.offset, complete: this.offset === this.total }) };
  }
}

let node: Node;

class FakeXhr {
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  onprogress: (() => void) | null = null;
  onloadend: (() => void) | null = null;
  status = 0;
  responseText = '';
  private method = '';
  private url = '';
  private range: string | undefined;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    if (name === 'Content-Range') this.range = value;
  }
  send(body: Blob | string | null) {
    const size = body instanceof Blob ? body.size : 0;
    const req = { method: this.method, url: this.url, range: this.range, size };
    node.sent.push(req);
    const answer = node.answer(req);
    setTimeout(() => {
      if (answer === 'network-error') {
        this.onerror?.();
      } else {
        this.status = answer.status;
        this.responseText = answer.body;
        this.onload?.();
      }
      this.onloadend?.();
    }, 0);
  }
  abort() {
    this.onabort?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function upload(size: number) {
  vi.useFakeTimers();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  node = new Node(size);
  const progress: number[] = [];
  const handle = uploadFile(
    () => Promise.resolve({ url: '/upload/file?token=t&directory=%2F', maxFileBytes: 4, chunkBytes: 4 }),
    new File(['x'.repeat(size)], 'world.zip'),
    (p) => progress.push(p),
  );
  let outcome: unknown = 'pending';
  handle.done.then(
    () => (outcome = 'done'),
    (e: unknown) => (outcome = e),
  );
  return { handle, progress, outcome: () => outcome };
}

describe('a file bigger than the chunk size, to a node that takes chunks', () => {
  it('is sent in order in chunks after a start, with one progress from 0 to 1, past the one-request limit', async () => {
    const { progress, outcome } = upload(10);
    await vi.runAllTimersAsync();
    expect(outcome()).toBe('done');
    expect(node.sent.map((s) => [s.method, s.range ?? '', s.size])).toEqual([
      ['POST', '', 0],
      ['PUT', 'bytes 0-3/10', 4],
      ['PUT', 'bytes 4-7/10', 4],
      ['PUT', 'bytes 8-9/10', 2],
    ]);
    expect(node.sent[1]?.url).toBe('/upload/file?token=t&directory=%2F&upload_id=u1');
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  // Fails on the old code: the whole file went as one body, and was refused over the limit.
  it('resumes after a network error from the offset the node confirmed, sending nothing twice', async () => {
    const { outcome } = upload(12);
    node.cuts.set(1, 3);
    await vi.runAllTimersAsync();
    expect(outcome()).toBe('done');
    expect(node.sent.map((s) => s.range ?? '')).toEqual(['', 'bytes 0-3/12', 'bytes 4-7/12', 'bytes */12', 'bytes 7-10/12', 'bytes 11-11/12']);
  });

  it('tries a failing chunk a few times, then gives up with the error', async () => {
    const { outcome } = upload(8);
    for (let i = 0; i < 10; i += 1) node.refusals.set(i, { status: 502, body: '' });
    await vi.runAllTimersAsync();
    expect(outcome()).toMatchObject({ status: 502 });
    expect(node.sent.filter((s) => s.size > 0)).toHaveLength(5);
  });

  it('stops at once on a refusal such as the disk limit', async () => {
    const { outcome } = upload(8);
    node.refusals.set(1, {
      status: 400,
      body: '{"errors":[{"code":"InsufficientDiskSpaceException","status":"400","detail":"There is not enough disk space available to complete this action."}]}',
    });
    await vi.runAllTimersAsync();
    expect(outcome()).toMatchObject({ status: 400, message: 'There is not enough disk space available to complete this action.' });
    expect(node.sent.filter((s) => s.method === 'PUT')).toHaveLength(2);
  });

  it('is one multipart body when the node takes no chunks (Wings), refused over its limit before sending', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    node = new Node(10);
    const handle = uploadFile(
      () => Promise.resolve({ url: '/upload/file?token=t', maxFileBytes: 4 }),
      new File(['x'.repeat(10)], 'w.zip'),
      () => undefined,
    );
    await expect(handle.done).rejects.toMatchObject({ status: 413 });
    expect(node.sent).toEqual([]);
  });
});
