import type { Config } from '../config';
import { LocalDaemon, type LocalDaemonOptions } from '../daemon/local';
import type { Db } from '../db';
import { nodes } from '../db/repos';
import type { Clock } from '../lib/time';
import { loadSecretBox } from '../lib/secret-box';
import { openNodeToken } from './node-credentials';
import type { NodeDaemons } from './node-daemons';
import { installConfiguration, serverConfiguration } from './server-configuration';
import { DEMO_GAME_PROGRAM, ensureDefaultNode } from './servers';

/** The sandbox settings (PANEL_* variables, server/config.ts) the panel's own node and Aerie's standalone node share. */
export type SandboxSettings = Pick<
  Config,
  | 'serverPidsLimit'
  | 'serverStopTimeoutSeconds'
  | 'serverUser'
  | 'allowUnlimitedServers'
  | 'allowHostNetwork'
  | 'serverHostPorts'
  | 'maxEntriesPerServer'
>;

/** Those settings as the local daemon takes them. */
export function sandboxOptions(settings: SandboxSettings) {
  return {
    maxEntriesPerServer: settings.maxEntriesPerServer,
    pidsLimit: settings.serverPidsLimit,
    stopTimeoutMs: settings.serverStopTimeoutSeconds * 1000,
    serverUser: settings.serverUser,
    allowUnlimitedServers: settings.allowUnlimitedServers,
    network: { allowHostNetwork: settings.allowHostNetwork, hostPorts: settings.serverHostPorts },
  } satisfies Partial<LocalDaemonOptions>;
}

/**
 * The daemon inside this panel, wired to the panel the way a Wings node is: it asks the panel's
 * database for the configuration of a server it was not told about (one the admin CLI created in
 * another process, say), and checks transfer tokens with its node's key.
 */
export function localDaemon(
  db: Db,
  options: {
    dataDir: string;
    clock: Clock;
    maxUploadBytes: number;
    maxEntriesPerServer?: number;
    pidsLimit?: number;
    stopTimeoutMs?: number;
    serverUser?: { uid: number; gid: number } | null;
    allowUnlimitedServers?: boolean;
    network?: LocalDaemonOptions['network'];
    socketTimings?: LocalDaemonOptions['socketTimings'];
  },
): LocalDaemon {
  const box = loadSecretBox(options.dataDir);
  return new LocalDaemon(options.dataDir, {
    configurationSource: (uuid) => serverConfiguration(db, uuid),
    installSource: (uuid) => installConfiguration(db, uuid),
    installFiles: { 'demo-game.mjs': DEMO_GAME_PROGRAM },
    now: () => options.clock.now(),
    key: async () => {
      const stored = await nodes.localKey(db);
      return stored === undefined ? undefined : openNodeToken(box, stored);
    },
    maxUploadBytes: options.maxUploadBytes,
    maxEntriesPerServer: options.maxEntriesPerServer,
    socketTimings: options.socketTimings,
    pidsLimit: options.pidsLimit,
    stopTimeoutMs: options.stopTimeoutMs,
    serverUser: options.serverUser,
    allowUnlimitedServers: options.allowUnlimitedServers,
    network: options.network,
  });
}

/**
 * Records where the local daemon's SFTP server listens, so the overview's `sftp_details` tell the
 * truth: its port, and as the host the panel's public name (APP_URL) or a specific listen
 * address; a wildcard listen address keeps the node's FQDN as the admin set it. `null`: it could
 * not listen (its port taken), recorded as port 0, which the pages show as SFTP unavailable. The
 * node is made now if it does not exist yet, so servers added later show the same.
 */
export async function recordLocalSftp(
  db: Db,
  daemons: Pick<NodeDaemons, 'newCredentials'>,
  listen: { host: string; port: number } | null,
  appUrl: string | undefined,
): Promise<void> {
  await ensureDefaultNode(db, daemons);
  if (!listen) return nodes.setLocalSftp(db, { port: 0 });
  const wildcard = listen.host === '0.0.0.0' || listen.host === '::';
  const fqdn = appUrl ? new URL(appUrl).hostname.replace(/^\[|\]$/g, '') : wildcard ? undefined : listen.host;
  await nodes.setLocalSftp(db, { fqdn, port: listen.port });
}
