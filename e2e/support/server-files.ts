import { createHash, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { Header } from 'tar';
import { fileListSchema, signedUrlSchema } from '../../src/contract';

/*
 * A server's files, seeded and checked through the client API as any client of a panel would:
 * nothing here knows where the volume lives, so the specs can run against a panel whose daemon
 * is on another machine.
 */

/** `{ 'plugins/a.yml': 'x: 1' }`: paths below the volume root; a key ending in `/` is a folder. */
export type Tree = Record<string, string>;

export interface ServerFiles {
  /** One request per entry (folders first), so each name reaches the panel exactly as written. */
  seed: (tree: Tree) => Promise<void>;
  /** Many entries at once: one .tar.gz through files/write, extracted with files/decompress, then removed. */
  seedArchive: (tree: Tree) => Promise<void>;
  /** The file's contents (files/contents). */
  read: (file: string) => Promise<string>;
  /** Whether the file or folder is listed in its parent folder (files/list). */
  exists: (file: string) => Promise<boolean>;
  /** The file's size and SHA-256, downloaded through its signed link (files/download). */
  digest: (file: string) => Promise<{ size: number; sha256: string }>;
}

const enc = encodeURIComponent;

async function expectOk(response: APIResponse, what: string): Promise<APIResponse> {
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${(await response.text()).slice(0, 300)}`);
  return response;
}

/**
 * The tree as a .tar.gz, built in memory: writing 10,000 files to disk only to pack them costs
 * tens of seconds on a busy machine. Every parent folder gets its own entry, folders first.
 */
function tarGz(tree: Tree): Buffer {
  const mtime = new Date();
  const folders = new Set<string>();
  const files: [string, Buffer][] = [];
  for (const [rel, content] of Object.entries(tree)) {
    const parts = rel.split('/').filter(Boolean);
    const depth = rel.endsWith('/') ? parts.length : parts.length - 1;
    for (let i = 1; i <= depth; i += 1) folders.add(`${parts.slice(0, i).join('/')}/`);
    if (!rel.endsWith('/')) files.push([rel, Buffer.from(content)]);
  }
  const blocks: Buffer[] = [];
  const add = (entry: string, type: 'Directory' | 'File', body: Buffer) => {
    const header = new Header({ path: entry, type, mode: type === 'File' ? 0o644 : 0o755, size: body.length, mtime, uid: 0, gid: 0 });
    if (header.encode() || !header.block) throw new Error(`seedArchive: ${entry} needs a pax header; use a shorter name or seed()`);
    blocks.push(header.block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  };
  for (const folder of [...folders].sort((x, y) => x.length - y.length)) add(folder, 'Directory', Buffer.alloc(0));
  for (const [rel, body] of files) add(rel, 'File', body);
  blocks.push(Buffer.alloc(1024)); // end of archive: two empty blocks
  return gzipSync(Buffer.concat(blocks));
}

/**
 * `auth` gives the headers that authenticate `request`: a client API key of a user who may write
 * the server's files, or the XSRF header of the signed-in page whose context `request` is.
 */
export function serverFiles(request: APIRequestContext, serverUuid: string, auth: () => Promise<Record<string, string>>): ServerFiles {
  const base = `/api/client/servers/${serverUuid}/files`;
  const headers = async (type?: string) => ({ ...(await auth()), Accept: 'application/json', ...(type ? { 'Content-Type': type } : {}) });
  const write = async (file: string, data: string | Buffer) =>
    expectOk(
      await request.post(`${base}/write?file=${enc(`/${file}`)}`, { headers: await headers('application/octet-stream'), data: Buffer.from(data) }),
      `files/write ${file}`,
    );
  const post = async (action: string, data: object) =>
    expectOk(await request.post(`${base}/${action}`, { headers: await headers('application/json'), data }), `files/${action}`);

  return {
    async seed(tree) {
      const entries = Object.entries(tree);
      // Shallow folders first: creating one that a deeper folder or a file already made would fail.
      const folders = entries.filter(([rel]) => rel.endsWith('/')).sort(([a], [b]) => a.split('/').length - b.split('/').length);
      for (const [rel] of folders) await post('create-folder', { root: '/', name: rel.replace(/\/+$/, '') });
      for (const [rel, content] of entries) if (!rel.endsWith('/')) await write(rel, content);
    },
    async seedArchive(tree) {
      const name = `.e2e-seed-${randomBytes(4).toString('hex')}.tar.gz`;
      await write(name, tarGz(tree));
      await post('decompress', { root: '/', file: name });
      await post('delete', { root: '/', files: [name] });
    },
    async read(file) {
      const response = await expectOk(
        await request.get(`${base}/contents?file=${enc(`/${file}`)}`, { headers: await headers() }),
        `files/contents ${file}`,
      );
      return response.text();
    },
    async exists(file) {
      const parts = file.replace(/\/+$/, '').split('/');
      const name = parts.pop();
      const response = await request.get(`${base}/list?directory=${enc(`/${parts.join('/')}`)}`, { headers: await headers() });
      if (response.status() === 404) return false;
      await expectOk(response, `files/list /${parts.join('/')}`);
      return fileListSchema.parse(await response.json()).data.some((entry) => entry.attributes.name === name);
    },
    async digest(file) {
      const signed = await expectOk(
        await request.get(`${base}/download?file=${enc(`/${file}`)}`, { headers: await headers() }),
        `files/download ${file}`,
      );
      const body = await (await expectOk(await request.get(signedUrlSchema.parse(await signed.json()).attributes.url), `download ${file}`)).body();
      return { size: body.length, sha256: createHash('sha256').update(body).digest('hex') };
    },
  };
}
