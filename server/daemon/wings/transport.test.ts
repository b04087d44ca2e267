import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startWingsDouble, wingsError, type WingsDouble } from '../../test/wings-double';
import { outcome, refusal } from '../../test/daemon-contract/support';
import { WingsNode } from '.';

/* The transport: Wings' error statuses as our refusal kinds, and a node that is down, slow or flooding never holds the panel. */

let wings: WingsDouble;
const s = randomUUID();

beforeEach(async () => {
  wings = await startWingsDouble();
});
afterEach(() => wings.close());

const nodeAt = (url: string, { token, ...options }: { timeoutMs?: number; maxJsonBytes?: number; token?: string } = {}) =>
  new WingsNode({ name: 'node-2', baseUrl: url, token: () => token ?? wings.token, ...options });

it("maps each Wings error status to our kind, keeping Wings' message", async () => {
  const node = nodeAt(wings.url);
  const route = 'GET /api/servers/:server/files/list-directory';
  const cases: [number, string][] = [
    [404, 'not_found'],
    [400, 'bad_request'],
    [422, 'bad_request'],
    [409, 'conflict'],
    [413, 'too_large'],
    [500, 'unavailable'],
    [502, 'unavailable'],
  ];
  for (const [status, kind] of cases) {
    wings.answer(route, wingsError(status, `Wings says ${status}.`));
    const error = await refusal(node.files.list(s, '/'));
    expect([status, error.kind]).toEqual([status, kind]);
    expect(error.message).toContain(`Wings says ${status}.`);
  }
  // A message no user should be shown (too long, or not a string) gives the node's name and the status instead.
  wings.answer(route, wingsError(400, 'x'.repeat(5000)));
  expect((await refusal(node.files.list(s, '/'))).message).toBe('The node node-2 refused the request (HTTP 400).');
  wings.answer(route, { status: 409, json: { error: { nested: true } } });
  expect(await refusal(node.files.list(s, '/'))).toMatchObject({ kind: 'conflict', message: 'The node node-2 refused the request (HTTP 409).' });
});

it("a node that refuses the panel's token is unavailable, saying so", async () => {
  const error = await refusal(nodeAt(wings.url, { token: 'not-the-token' }).files.list(s, '/'));
  expect(error).toMatchObject({ kind: 'unavailable', message: "The node node-2 refused the panel's token (HTTP 403)." });
  expect(wings.last('GET /api/servers/:server/files/list-directory').headers.authorization).toBe('Bearer not-the-token');
});

it('a node that is down is unavailable at once, naming the node', async () => {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const started = Date.now();
  const error = await refusal(nodeAt(`http://127.0.0.1:${port}`).files.list(s, '/'));
  expect(error.kind).toBe('unavailable');
  expect(error.message).toMatch(/^The node node-2 did not answer: .*ECONNREFUSED/);
  expect(Date.now() - started).toBeLessThan(2000);
});

it('a node that does not answer in time is unavailable, not waited on', async () => {
  wings.answer('GET /api/servers/:server/files/list-directory', 'hang');
  const started = Date.now();
  const error = await refusal(nodeAt(wings.url, { timeoutMs: 300 }).files.list(s, '/'));
  expect(error).toMatchObject({ kind: 'unavailable', message: 'The node node-2 did not answer: no answer within 0.3 s' });
  expect(Date.now() - started).toBeLessThan(2000);
  // One that stops half-way through its answer too.
  wings.answer('GET /api/servers/:server/files/list-directory', (_request, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
  });
  expect(await outcome(nodeAt(wings.url, { timeoutMs: 300 }).files.list(s, '/'))).toBe('unavailable');
});

it('refuses an oversized answer, declared or counted, without reading it whole', async () => {
  const node = nodeAt(wings.url, { maxJsonBytes: 1000 });
  wings.answer('GET /api/servers/:server/files/list-directory', { status: 200, json: Array.from({ length: 100 }, () => ({ name: 'x'.repeat(50) })) });
  expect(await refusal(node.files.list(s, '/'))).toMatchObject({ kind: 'unavailable', message: 'The node node-2 answered more than 1000 bytes.' });
  let sent = 0;
  let closed: () => void = () => undefined;
  const gone = new Promise<void>((resolve) => (closed = resolve));
  wings.answer('GET /api/servers/:server/files/list-directory', (_request, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const pump = () => {
      // 50 MB unless the reader hangs up first.
      while (sent < 50_000_000 && !res.destroyed) {
        sent += 16_384;
        if (!res.write('['.repeat(16_384))) return void res.once('drain', pump);
      }
    };
    res.on('close', closed);
    pump();
  });
  expect(await outcome(node.files.list(s, '/'))).toBe('unavailable');
  await gone;
  expect(sent).toBeLessThan(10_000_000);
});

it('follows no redirect: the token goes to the node only', async () => {
  const elsewhere = await startWingsDouble();
  try {
    wings.answer('GET /api/servers/:server/files/list-directory', {
      status: 302,
      headers: { location: `${elsewhere.url}/api/servers/${s}/files/list-directory` },
    });
    expect(await outcome(nodeAt(wings.url).files.list(s, '/'))).toBe('unavailable');
    expect(elsewhere.requests).toHaveLength(0);
  } finally {
    await elsewhere.close();
  }
});
