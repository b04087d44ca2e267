import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { create as createTar } from 'tar';
import { buildApp } from '../server/app';
import { testConfig } from '../server/config';
import type { LocalDaemon } from '../server/daemon/local';
import { databaseFile, migrateToLatest, openDatabase, type Db } from '../server/db';
import { REPO_ROOT } from '../server/lib/spa-build';
import { systemClock, type Clock } from '../server/lib/time';
import { localDaemon } from '../server/services/local-node';
import { nodeDaemons } from '../server/services/node-daemons';
import { panelCli } from './cli';
import { loadSecretBox } from '../server/lib/secret-box';

/*
 * The panel each benchmark runs against: the real app on a throw-away data dir, seeded only
 * through the admin CLI (its own process) and the client API, so nothing here depends on where
 * the database or the volumes live.
 */

export interface BenchUser {
  email: string;
  password: string;
}

export interface BenchServer {
  uuid: string;
  identifier: string;
}

export interface InjectResult {
  statusCode: number;
  body: string;
}

export interface BenchPanel {
  app: FastifyInstance;
  /** The panel's database (the SFTP bench signs in through the panel's own authenticator). */
  db: Db;
  clock: Clock;
  dataDir: string;
  /** The panel's own daemon (the files/list figure measures it alone). */
  daemon: LocalDaemon;
  cli: <T>(args: readonly string[]) => Promise<T>;
  /** A user with a server and a client API key for them. */
  owner: (tag: string) => Promise<{ user: BenchUser; server: BenchServer; token: string }>;
  /** A client API call through `inject`; anything but 2xx throws. */
  api: (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Buffer | string | object) => Promise<InjectResult>;
  /** Puts each of `names` (files or folders under `sourceDir`) into the server's `/` through files/write + files/decompress. */
  upload: (token: string, server: BenchServer, sourceDir: string, names: readonly string[]) => Promise<void>;
  /** Listens on a free port of 127.0.0.1 and returns the base URL. */
  listen: () => Promise<string>;
  close: () => Promise<void>;
}

export async function startBenchPanel(): Promise<BenchPanel> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-bench-'));
  // Measuring needs thousands of requests from one user a minute: the per-user API limit is off here.
  const config = testConfig({ dataDir, logLevel: 'silent', apiRateLimit: 0 });
  const db = openDatabase(databaseFile(dataDir));
  await migrateToLatest(db);
  const daemon = localDaemon(db, { dataDir, clock: systemClock, maxUploadBytes: config.maxUploadBytes });
  const app = await buildApp({
    config,
    db,
    nodes: nodeDaemons(daemon, loadSecretBox(dataDir), daemon),
    clock: systemClock,
    spaDir: path.join(REPO_ROOT, 'dist'),
  });
  const cli = <T>(args: readonly string[]) => panelCli<T>(dataDir, args);

  const api: BenchPanel['api'] = async (token, method, url, payload) => {
    const raw = Buffer.isBuffer(payload) || typeof payload === 'string';
    const body = payload === undefined ? {} : { payload: raw ? payload : JSON.stringify(payload) };
    const type = payload === undefined ? {} : { 'content-type': raw ? 'application/octet-stream' : 'application/json' };
    const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...type }, ...body });
    if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
    return { statusCode: res.statusCode, body: res.body };
  };

  let counter = 0;
  return {
    app,
    db,
    clock: systemClock,
    dataDir,
    daemon,
    cli,
    async owner(tag) {
      const user = { email: `${tag}@aerie.test`, password: `${tag}-password` };
      await cli(['user:create', '--email', user.email, '--username', tag, '--password', user.password]);
      const server = await cli<BenchServer>(['server:create', '--owner', user.email, '--name', `${tag} server`]);
      const { token } = await cli<{ token: string }>(['apikey:create', '--email', user.email, '--description', 'bench']);
      return { user, server, token };
    },
    api,
    async upload(token, server, sourceDir, names) {
      const files = `/api/client/servers/${server.uuid}/files`;
      for (const name of names) {
        // A plain tar: the bench's trees are large, and gzip would only slow the seeding down.
        counter += 1;
        const archive = path.join(dataDir, `upload-${counter}.tar`);
        await createTar({ cwd: sourceDir, file: archive, portable: true }, [name]);
        const inVolume = `.bench-upload-${counter}.tar`;
        await api(token, 'POST', `${files}/write?file=${encodeURIComponent(`/${inVolume}`)}`, fs.readFileSync(archive));
        fs.rmSync(archive);
        await api(token, 'POST', `${files}/decompress`, { root: '/', file: inVolume });
        await api(token, 'POST', `${files}/delete`, { root: '/', files: [inVolume] });
      }
    },
    async listen() {
      return app.listen({ port: 0, host: '127.0.0.1' });
    },
    async close() {
      await app.close();
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
