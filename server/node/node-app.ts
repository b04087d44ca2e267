import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { LocalDaemon, type SftpCredentials, type SftpGrant } from '../daemon/local';
import { sandboxOptions, type SandboxSettings } from '../services/local-node';
import { DEMO_GAME_PROGRAM } from '../services/servers';
import type { NodeConfig } from './config';
import { type NodeLog, NodeRuntime } from './node-runtime';
import { PanelClient } from './panel-client';
import { wingsFileRoutes } from './wings-files';
import { wingsHttp } from './wings-http';
import { wingsServerRoutes } from './wings-servers';

/*
 * Aerie's node on its own: the local daemon behind Wings' HTTP API, answering to the panel named
 * in its config.yml and reporting to it as Wings does. `buildNode` never listens (tests inject).
 */

export interface Node {
  app: FastifyInstance;
  daemon: LocalDaemon;
  runtime: NodeRuntime;
}

export async function buildNode(config: NodeConfig, sandbox: SandboxSettings, log: NodeLog): Promise<Node> {
  const client = new PanelClient({ remote: config.remote, tokenId: config.tokenId, token: config.token });
  const runtime = new NodeRuntime(client, log);
  const daemon = new LocalDaemon(config.dataDir, {
    configurationSource: runtime.configurationSource,
    installSource: (server) => client.installConfiguration(server),
    installFiles: { 'demo-game.mjs': DEMO_GAME_PROGRAM },
    key: async () => config.token,
    log,
    maxUploadBytes: config.uploadLimitBytes,
    ...sandboxOptions(sandbox),
  });
  runtime.attach(daemon);

  const app = Fastify({ genReqId: () => randomUUID(), bodyLimit: 1024 * 1024, logger: false });
  const panelOrigin = new URL(config.remote).origin;
  const origins = [panelOrigin, ...config.allowedOrigins];
  wingsHttp(app, { token: config.token, origins, log });
  // The console socket compares a page's Origin with this: the panel's, or one of allowed_origins.
  const originFor = (request: FastifyRequest): string => {
    const origin = request.headers.origin;
    return origin !== undefined && (config.allowedOrigins.includes(origin) || config.allowedOrigins.includes('*')) ? origin : panelOrigin;
  };
  await daemon.mount(app, { panelOrigin: originFor });
  wingsServerRoutes(app, daemon, runtime);
  await wingsFileRoutes(app, daemon, runtime, config.uploadLimitBytes);
  return { app, daemon, runtime };
}

/** SFTP sign-in through the panel (`POST /api/remote/sftp/auth`), as Wings asks it. */
export function panelSftpAuthenticator(client: PanelClient) {
  return {
    async authenticate(credentials: SftpCredentials): Promise<SftpGrant | null> {
      // Wings refuses a name without a server part itself, before asking the panel.
      if (!/^(.+)\.([a-z0-9]{8})$/i.test(credentials.username)) return null;
      // The key is only looked at here; the signed attempt that follows is what the panel decides.
      if (credentials.method === 'publickey' && credentials.checkOnly) return { server: '', user: '', permissions: [], stamp: '' };
      if (credentials.method === 'publickey' && credentials.publicKey === undefined) return null;
      const grant = await client.sftpAuth({
        type: credentials.method === 'password' ? 'password' : 'public_key',
        username: credentials.username,
        password: credentials.method === 'password' ? credentials.password : (credentials.publicKey ?? ''),
        ip: credentials.ip,
      });
      return grant && { ...grant, stamp: '' };
    },
    // Wings asks the panel once per sign-in; what it granted stands for the session.
    recheck: async (grant: SftpGrant): Promise<string[] | null> => grant.permissions,
  };
}
