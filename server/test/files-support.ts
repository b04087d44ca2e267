import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { TestPanel } from './harness';

/*
 * The file routes' fixture: OWNER_A owns S1, OWNER_B owns S2 (a sibling volume holding
 * CANARY-S2), CANARY-HOST sits outside every volume, and `snapshot()` hashes everything outside
 * S1's volume so a test can assert that nothing there changed.
 */

export const CANARY_S2 = 'CANARY-S2';
export const CANARY_HOST = 'CANARY-HOST';

/** The path and query of a signed link (the node is this panel, so it is reached by inject). */
export function nodePath(document: { attributes: { url: string } }): string {
  const url = new URL(document.attributes.url);
  return `${url.pathname}${url.search}`;
}

/**
 * Allocated bytes of a volume, measured independently of the daemon: every entry and the root at
 * least one 4 KiB block (ext4, tmpfs), each inode once (hard links count once), links not followed.
 */
export function volumeUsage(root: string): number {
  const allocated = (st: fs.Stats): number => Math.max(st.blocks * 512, 4096);
  const seen = new Set<number>();
  let total = allocated(fs.lstatSync(root));
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const st = fs.lstatSync(path.join(dir, name));
      if (seen.has(st.ino)) continue;
      seen.add(st.ino);
      total += allocated(st);
      if (st.isDirectory()) walk(path.join(dir, name));
    }
  };
  walk(root);
  return total;
}

type InjectOptions = { query?: Record<string, string> | string; body?: unknown; raw?: string | Buffer; headers?: Record<string, string> };

/** The file fixture on a panel: the fixture that made the panel closes it (`files` in `fixtures.ts`). */
export async function makeFileFixture(panel: TestPanel) {
  const owner = await panel.user();
  const otherOwner = await panel.user();
  const s1 = await panel.server(owner);
  const s2 = await panel.server(otherOwner);
  const v1 = panel.daemon.volumePath(s1.uuid);
  const v2 = panel.daemon.volumePath(s2.uuid);
  fs.writeFileSync(path.join(v2, 'canary.txt'), CANARY_S2);
  fs.mkdirSync(path.join(v2, 'sub'));
  fs.writeFileSync(path.join(v2, 'sub', 'inner.txt'), CANARY_S2);
  const hostDir = path.join(panel.dataDir, 'host');
  fs.mkdirSync(hostDir);
  const hostCanary = path.join(hostDir, 'canary.txt');
  fs.writeFileSync(hostCanary, CANARY_HOST);
  const ownerHeaders = await panel.bearerHeaders(owner);

  /** Every path outside S1's volume with a hash of its content or its link target. */
  function snapshot(): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (dir: string) => {
      for (const name of fs.readdirSync(dir)) {
        const p = path.join(dir, name);
        if (p === v1) continue;
        const st = fs.lstatSync(p);
        if (st.isSymbolicLink()) out[p] = `link:${fs.readlinkSync(p)}`;
        else if (st.isDirectory()) {
          out[p] = `dir:${(st.mode & 0o7777).toString(8)}`;
          walk(p);
        } else out[p] = `file:${(st.mode & 0o7777).toString(8)}:${createHash('sha256').update(fs.readFileSync(p)).digest('hex')}`;
      }
    };
    walk(panel.dataDir);
    return out;
  }

  async function inject(method: 'GET' | 'POST' | 'PUT', url: string, options: InjectOptions, auth: Record<string, string>) {
    // A string query is sent exactly as given (for pre-encoded attack strings).
    const query = typeof options.query === 'string' ? `?${options.query}` : options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
    const headers: Record<string, string> = { ...auth, ...(options.headers ?? {}) };
    let payload: string | Buffer | undefined;
    if (options.raw !== undefined) {
      payload = options.raw;
      headers['content-type'] ??= 'text/plain';
    } else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const joined = query && url.includes('?') ? `${url}&${query.slice(1)}` : `${url}${query}`;
    return panel.app.inject({ method, url: joined, headers, payload });
  }

  /**
   * A files endpoint as the SPA uses it. Downloads and uploads take the reference panel's two
   * steps: the panel signs a link (answering its own refusals), then the node's link is followed
   * with no credentials at all, carrying the query or body.
   */
  async function call(method: 'GET' | 'POST' | 'PUT', endpoint: string, options: InjectOptions = {}, server = s1.uuid) {
    const base = `/api/client/servers/${server}/files/${endpoint}`;
    if (endpoint === 'upload' && method === 'POST') {
      const { headers = {}, ...rest } = options;
      const contentType = headers['content-type'];
      const signed = await inject('GET', base, {}, { ...ownerHeaders, ...headers });
      if (signed.statusCode !== 200) return signed;
      return inject('POST', nodePath(signed.json()), { ...rest, headers: contentType ? { 'content-type': contentType } : {} }, {});
    }
    const res = await inject(method, base, options, ownerHeaders);
    if (endpoint !== 'download' || res.statusCode !== 200) return res;
    return inject('GET', nodePath(res.json()), {}, {});
  }

  return {
    panel,
    owner,
    otherOwner,
    s1,
    s2,
    v1,
    v2,
    hostDir,
    hostCanary,
    ownerHeaders,
    snapshot,
    call,
    /** Writes a file straight into S1's volume, as the tenant's own process would. */
    put(rel: string, content: string | Buffer = 'x') {
      const p = path.join(v1, rel);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
    },
    /** Plants a symlink inside S1's volume. */
    link(rel: string, target: string) {
      const p = path.join(v1, rel);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.symlinkSync(target, p);
    },
    /** A signed upload link for S1 (path and query), as the SPA gets one before it uploads. */
    async uploadPath(directory = '/') {
      const signed = await inject('GET', `/api/client/servers/${s1.uuid}/files/upload`, {}, ownerHeaders);
      expect(signed.statusCode).toBe(200);
      return `${nodePath(signed.json())}&directory=${encodeURIComponent(directory)}`;
    },
    exists: (rel: string) => fs.existsSync(path.join(v1, rel)),
    read: (rel: string) => fs.readFileSync(path.join(v1, rel), 'utf8'),
    /** Every activity entry written so far, oldest first, with parsed properties. */
    async events() {
      const rows = await panel.db.selectFrom('activity_logs').select(['event', 'properties']).orderBy('id').execute();
      return rows.map((r) => ({ event: r.event, properties: JSON.parse(r.properties) as Record<string, unknown> }));
    },
  };
}

export type FileFixture = Awaited<ReturnType<typeof makeFileFixture>>;

/** A refused escape: 4xx with an error document and no canary content anywhere in the reply. */
export function expectRefused(res: { statusCode: number; body: string }, status: number | number[] = 404): void {
  const allowed = Array.isArray(status) ? status : [status];
  expect(allowed, `status ${res.statusCode}: ${res.body.slice(0, 300)}`).toContain(res.statusCode);
  expect(res.body).not.toContain(CANARY_S2);
  expect(res.body).not.toContain(CANARY_HOST);
  expect(res.body).not.toContain('root:x:0:0');
  const doc = JSON.parse(res.body) as { errors?: unknown[] };
  expect(Array.isArray(doc.errors)).toBe(true);
}
