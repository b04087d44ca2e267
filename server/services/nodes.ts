import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { stringify } from 'yaml';
import type { Db } from '../db';
import { nodes } from '../db/repos';
import type { NodeRow } from '../db/schema';
import { nodeHealth, type NodeHealth } from '../daemon/wings/system';
import type { NodeDaemons } from './node-daemons';

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
  const host = net.isIP(input.fqdn) === 6 ? `[${input.fqdn}]` : input.fqdn;
  return nodes.insert(db, {
    uuid: randomUUID(),
    name: input.name,
    fqdn: input.fqdn,
    sftp_port: input.sftpPort,
    maintenance_mode: 0,
    daemon_base_url: `${input.scheme}://${host}:${input.daemonPort}`,
    memory: input.memory,
    disk: input.disk,
    port_start: input.ports?.start ?? null,
    port_end: input.ports?.end ?? null,
    allocation_ip: input.ip,
    ...daemons.newCredentials(),
  });
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
 * under it (Aerie's node run by a user without /var/lib).
 */
export function nodeConfigYaml(node: NodeRow, daemons: Pick<NodeDaemons, 'tokenOf'>, panelUrl: string, dataDir?: string): string {
  if (node.daemon_base_url === null) throw new NodeError("The panel's own node runs inside the panel: it has no config.yml.");
  const url = new URL(node.daemon_base_url);
  const under = (name: string, fallback: string) => (dataDir ? path.join(path.resolve(dataDir), name) : fallback);
  const fqdn = node.fqdn.toLowerCase();
  return stringify({
    debug: false,
    uuid: node.uuid,
    token_id: node.daemon_token_id,
    token: daemons.tokenOf(node),
    api: {
      host: '0.0.0.0',
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      ssl: {
        enabled: url.protocol === 'https:',
        cert: `/etc/letsencrypt/live/${fqdn}/fullchain.pem`,
        key: `/etc/letsencrypt/live/${fqdn}/privkey.pem`,
      },
      upload_limit: 100,
    },
    system: {
      data: under('volumes', '/var/lib/pterodactyl/volumes'),
      archive_directory: under('archives', '/var/lib/pterodactyl/archives'),
      backup_directory: under('backups', '/var/lib/pterodactyl/backups'),
      tmp_directory: under('tmp', '/tmp/pterodactyl'),
      sftp: { bind_port: node.sftp_port },
    },
    allowed_mounts: [],
    remote: panelUrl.replace(/\/+$/, ''),
    allowed_origins: [],
  });
}
