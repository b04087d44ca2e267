import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { servers } from '../server/db/repos';
import { startBenchPanel } from './panel';

/*
 * Upload benchmark for `npm run bench` (printed, never asserted): one file (AERIE_BENCH_UPLOAD_MB,
 * 150 MB by default) over loopback HTTP through the signed upload link in resumable chunks, as
 * the SPA sends it (the link's chunk_bytes, one chunk at a time), beside a multipart upload of
 * 90 MB (under the 100 MiB per-request limit) as one body.
 */

const SIZE = Number(process.env.AERIE_BENCH_UPLOAD_MB ?? 150) * 1000 * 1000;
const SINGLE = 90 * 1000 * 1000;

export async function benchUploads(): Promise<string[]> {
  const panel = await startBenchPanel();
  try {
    const { server, token } = await panel.owner('uploadbench');
    const row = await servers.findByIdentifier(panel.db, server.uuid);
    if (!row) throw new Error('no bench server');
    await panel.db.updateTable('servers').set({ disk: 0, status: null }).where('id', '=', row.id).execute();
    await panel.daemon.servers.sync(server.uuid);
    const base = await panel.listen();
    const link = async () => {
      const res = await panel.api(token, 'GET', `/api/client/servers/${server.uuid}/files/upload`);
      const { url, chunk_bytes } = (JSON.parse(res.body) as { attributes: { url: string; chunk_bytes: number } }).attributes;
      return { url: `${base}${new URL(url).pathname}${new URL(url).search}&directory=%2F`, chunkBytes: chunk_bytes };
    };
    const data = randomBytes(SIZE);

    const chunked = await link();
    const t0 = performance.now();
    const start = await fetch(chunked.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'big.bin', size: SIZE }),
    });
    const { upload_id } = (await start.json()) as { upload_id: string };
    for (let at = 0; at < SIZE; at += chunked.chunkBytes) {
      const end = Math.min(at + chunked.chunkBytes, SIZE);
      const res = await fetch(`${chunked.url}&upload_id=${upload_id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-range': `bytes ${at}-${end - 1}/${SIZE}` },
        body: data.subarray(at, end),
      });
      if (!res.ok) throw new Error(`chunk at ${at}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    const chunkedMs = performance.now() - t0;
    const stored = fs.readFileSync(path.join(panel.daemon.volumePath(server.uuid), 'big.bin'));
    if (createHash('sha256').update(stored).digest('hex') !== createHash('sha256').update(data).digest('hex'))
      throw new Error('the stored file differs');

    const single = await link();
    const form = new FormData();
    form.append('files', new Blob([data.subarray(0, SINGLE)]), 'one.bin');
    const t1 = performance.now();
    const res = await fetch(single.url, { method: 'POST', body: form });
    if (!res.ok) throw new Error(`multipart: ${res.status} ${await res.text()}`);
    const singleMs = performance.now() - t1;

    const mbs = (bytes: number, ms: number) => (bytes / 1e6 / (ms / 1000)).toFixed(0);
    return [
      `uploads: ${SIZE / 1e6} MB in ${Math.ceil(SIZE / chunked.chunkBytes)} chunks of ${chunked.chunkBytes / 1024 / 1024} MiB: ${(chunkedMs / 1000).toFixed(2)} s, ${mbs(SIZE, chunkedMs)} MB/s`,
      `uploads: ${SINGLE / 1e6} MB as one multipart body: ${(singleMs / 1000).toFixed(2)} s, ${mbs(SINGLE, singleMs)} MB/s`,
    ];
  } finally {
    await panel.close();
  }
}
