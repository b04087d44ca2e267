import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { nodeConfigYaml as renderConfigYaml } from '../../src/contract/node-config-yaml';
import type { Db } from '../db';
import { nodes } from '../db/repos';
import type { NodeRow } from '../db/schema';
import { nodeHealth, type NodeHealth } from '../daemon/wings/system';
import type { NodeDaemons } from './node-daemons';
import { DEFAULT_LOCATION, ensureLocation } from './locations';

/*
 * Nodes an operator attaches (issue 24 §4): Wings nodes, or Aerie's node on another machine. The
 * panel's own node (no daemon address) is made by the panel and cannot be deleted.
 */

export class NodeError extends Error {}

export interface NodeInput {
  name: string;
  fqdn: string;
  scheme: 'http' | 'https';
  daemonPort: number;
  sftpPort: number;
  ports: { start: number; end: number } | null;
  ip: string | null;
  memory: number;
  disk: number;
  /** Its location; absent: the "default" one, made when missing, so no node is without one. */
  locationId?: number;
  /** The reference's settings (the application API's); absent: its defaults. */
  settings?: NodeSettings;
}

export interface NodeSettings {
  public: boolean;
  behindProxy: boolean;
  maintenance: boolean;
  memoryOverallocate: number;
  diskOverallocate: number;
  uploadSize: number;
  daemonBase?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export function checkNodeInput(input: NodeInput): string | null {
  if (!NAME.test(input.name)) return 'The name must be 1-100 letters, digits, dots, dashes or underscores, starting with a letter or digit.';
  if (input.name === 'local') return "The name local is the panel's own node's.";
  if (!HOSTNAME.test(input.fqdn) && net.isIP(input.fqdn) === 0) return 'The FQDN must be a host name or an IP address.';
  if (input.ip !== null && net.isIP(input.ip) === 0) return 'The allocation address must be an IP address.';
  return null;
}

export async function createNode(db: Db, daemons: Pick<NodeDaemons, 'newCredentials'>, input: NodeInput): Promise<NodeRow> {
  const refused = checkNodeInput(input);
  if (refused) throw new NodeError(refused);
  if (await nodes.findByName(db, input.name)) {
    throw new NodeError(`A node named ${input.name} exists already.`);
  }
  const locationId = input.locationId ?? (await ensureLocation(db, DEFAULT_LOCATION, new Date())).id;
  return nodes.insert(db, {
    uuid: randomUUID(),
    name: input.name,
    fqdn: input.fqdn,
    sftp_port: input.sftpPort,
    maintenance_mode: 0,
    daemon_base_url: daemonUrl(input),
    memory: input.memory,
    disk: input.disk,
    port_start: input.ports?.start ?? null,
    port_end: input.ports?.end ?? null,
    allocation_ip: input.ip,
    location_id: locationId,
    ...(input.settings ? settingsColumns(input.settings) : {}),
    ...daemons.newCredentials(),
  });
}

export function daemonUrl(input: Pick<NodeInput, 'fqdn' | 'scheme' | 'daemonPort'>): string {
  const host = net.isIP(input.fqdn) === 6 ? `[${input.fqdn}]` : input.fqdn;
  return `${input.scheme}://${host}:${input.daemonPort}`;
}

export function settingsColumns(settings: NodeSettings) {
  return {
    public: settings.public ? 1 : 0,
    behind_proxy: settings.behindProxy ? 1 : 0,
    maintenance_mode: settings.maintenance ? 1 : 0,
    memory_overallocate: settings.memoryOverallocate,
    disk_overallocate: settings.diskOverallocate,
    upload_size: settings.uploadSize,
    ...(settings.daemonBase === undefined ? {} : { daemon_base: settings.daemonBase }),
  };
}

export interface NodeListing {
  node: NodeRow;
  servers: number;
  /** The panel's own node always answers; another is asked for its system information. */
  health: NodeHealth | { reachable: true; version: 'this panel' };
}

export async function listNodes(db: Db, daemons: Pick<NodeDaemons, 'tokenOf'>): Promise<NodeListing[]> {
  const [rows, count] = await Promise.all([nodes.all(db), nodes.serverCounts(db)]);
  return Promise.all(
    rows.map(async (node) => ({
      node,
      servers: count.get(node.id) ?? 0,
      health:
        node.daemon_base_url === null
          ? { reachable: true as const, version: 'this panel' as const }
          : await nodeHealth(node.daemon_base_url, daemons.tokenOf(node)),
    })),
  );
}

export async function deleteNode(db: Db, name: string): Promise<void> {
  const node = await nodes.findByName(db, name);
  if (!node) throw new NodeError(`No node named ${name}.`);
  if (node.daemon_base_url === null) throw new NodeError("The panel's own node cannot be deleted.");
  const servers = (await nodes.serverCounts(db)).get(node.id) ?? 0;
  if (servers > 0) throw new NodeError(`${servers} server(s) live on ${name}: move or delete them first.`);
  if (!(await nodes.removeEmpty(db, node.id))) throw new NodeError(`A server was just placed on ${name}: move or delete it first.`);
}

/**
 * The node's Wings `config.yml`, as the reference panel's "Configuration" tab writes it, so the
 * same steps set up Wings or Aerie's node. With `dataDir` the data, backup and temporary paths lie
 * under it (Aerie's node run by a user without /var/lib). One builder for the CLI's YAML and the
 * application API's JSON.
 */
export function nodeConfiguration(node: NodeRow, daemons: Pick<NodeDaemons, 'tokenOf'>, panelUrl: string, dataDir?: string) {
  if (node.daemon_base_url === null) throw new NodeError(LOCAL_HAS_NO_CONFIG);
  const url = new URL(node.daemon_base_url);
  const under = (name: string, fallback: string) => (dataDir ? path.join(path.resolve(dataDir), name) : fallback);
  const fqdn = node.fqdn.toLowerCase();
  return {
    debug: false,
    uuid: node.uuid,
    token_id: node.daemon_token_id,
    token: daemons.tokenOf(node),
    api: {
      host: '0.0.0.0',
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      ssl: {
        // Behind a proxy the proxy holds the certificate (the reference's rule).
        enabled: url.protocol === 'https:' && node.behind_proxy === 0,
        cert: `/etc/letsencrypt/live/${fqdn}/fullchain.pem`,
        key: `/etc/letsencrypt/live/${fqdn}/privkey.pem`,
      },
      upload_limit: node.upload_size,
    },
    system: {
      data: under('volumes', node.daemon_base),
      archive_directory: under('archives', '/var/lib/pterodactyl/archives'),
      backup_directory: under('backups', '/var/lib/pterodactyl/backups'),
      tmp_directory: under('tmp', '/tmp/pterodactyl'),
      sftp: { bind_port: node.sftp_port },
    },
    allowed_mounts: [] as string[],
    remote: panelUrl.replace(/\/+$/, ''),
    allowed_origins: [] as string[],
  };
}

export const LOCAL_HAS_NO_CONFIG = "The panel's own node runs inside the panel: it has no config.yml.";

export function nodeConfigYaml(node: NodeRow, daemons: Pick<NodeDaemons, 'tokenOf'>, panelUrl: string, dataDir?: string): string {
  return renderConfigYaml(nodeConfiguration(node, daemons, panelUrl, dataDir));
}
