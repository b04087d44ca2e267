import { nodes } from '../db/repos';
import { parsePortRange, PORT_RANGE_RULE } from '../lib/port-range';
import { DEFAULT_LOCATION, ensureLocation } from '../services/locations';
import { createNode, deleteNode, listNodes, NodeError, nodeConfigYaml } from '../services/nodes';
import { CliError, int, required, str, type Command, type Options } from './options';
import { table, withText } from './table';

/** The admin CLI's commands about nodes (issue 24 §4); the admin pages come with the admin area. */

async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof NodeError) throw new CliError(error.message, 2);
    throw error;
  }
}

function port(opts: Options, name: string, fallback?: number): number {
  const value = int(opts, name) ?? fallback;
  if (value === undefined) throw new CliError(`--${name} is required.`, 2);
  if (value < 1 || value > 65535) throw new CliError(`--${name} must be between 1 and 65535.`, 2);
  return value;
}

function mib(opts: Options, name: string): number {
  const value = int(opts, name) ?? 0;
  if (value < 0 || value > 10_000_000) throw new CliError(`--${name} must be between 0 and 10000000 (MiB).`, 2);
  return value;
}

function portRange(opts: Options): { start: number; end: number } | null {
  const raw = str(opts, 'ports');
  if (raw === undefined) return null;
  const range = parsePortRange(raw);
  if (!range) throw new CliError(`--ports must be ${PORT_RANGE_RULE}.`, 2);
  return range;
}

export const NODE_COMMANDS: Record<string, Command> = {
  'node:create': {
    options: {
      name: { type: 'string' },
      fqdn: { type: 'string' },
      'daemon-port': { type: 'string' },
      scheme: { type: 'string' },
      'sftp-port': { type: 'string' },
      ports: { type: 'string' },
      ip: { type: 'string' },
      memory: { type: 'string' },
      disk: { type: 'string' },
      location: { type: 'string' },
    },
    async run(opts, deps) {
      // Every node is in a location (deployment picks by them): "default" unless one is named; made when missing.
      const location = await ensureLocation(deps.db, str(opts, 'location') ?? DEFAULT_LOCATION, deps.clock.now());
      const scheme = str(opts, 'scheme') ?? 'https';
      if (scheme !== 'http' && scheme !== 'https') throw new CliError('--scheme must be http or https.', 2);
      const node = await refusing(() =>
        createNode(deps.db, deps.nodes, {
          name: required(opts, 'name'),
          fqdn: required(opts, 'fqdn'),
          scheme,
          daemonPort: port(opts, 'daemon-port'),
          sftpPort: port(opts, 'sftp-port', 2022),
          ports: portRange(opts),
          ip: str(opts, 'ip') ?? null,
          memory: mib(opts, 'memory'),
          disk: mib(opts, 'disk'),
          locationId: location.id,
        }),
      );
      return {
        id: node.id,
        uuid: node.uuid,
        name: node.name,
        location: location.short,
        token_id: node.daemon_token_id,
        token: deps.nodes.tokenOf(node),
      };
    },
  },
  'node:config': {
    options: { name: { type: 'string' }, 'data-dir': { type: 'string' }, json: { type: 'boolean' } },
    async run(opts, deps) {
      const name = required(opts, 'name');
      const node = await nodes.findByName(deps.db, name);
      if (!node) throw new CliError(`No node named ${name}.`, 2);
      if (!deps.publicUrl) throw new CliError('The panel has no public URL to give the node: set APP_URL.', 2);
      const yaml = await refusing(async () => nodeConfigYaml(node, deps.nodes, deps.publicUrl ?? '', str(opts, 'data-dir')));
      return withText({ config: yaml }, opts.json === true ? undefined : yaml.trimEnd());
    },
  },
  'node:list': {
    options: { json: { type: 'boolean' } },
    async run(opts, deps) {
      const listed = await listNodes(deps.db, deps.nodes);
      const view = listed.map(({ node, servers, health }) => ({
        id: node.id,
        uuid: node.uuid,
        name: node.name,
        address: node.daemon_base_url ?? 'in this panel',
        sftp: `${node.fqdn}:${node.sftp_port}`,
        servers,
        reachable: health.reachable,
        version: health.reachable ? health.version : null,
        reason: health.reachable ? null : health.reason,
      }));
      const text = table(
        ['NAME', 'ADDRESS', 'SFTP', 'SERVERS', 'REACHABLE'],
        view.map((n) => [n.name, n.address, n.sftp, String(n.servers), n.reachable ? `yes (${n.version ?? ''})` : `no: ${n.reason ?? ''}`]),
        'No nodes yet: the panel makes its own at its first start.',
      );
      return withText({ nodes: view }, opts.json === true ? undefined : text);
    },
  },
  'node:delete': {
    options: { name: { type: 'string' } },
    async run(opts, { db }) {
      const name = required(opts, 'name');
      await refusing(() => deleteNode(db, name));
      return { deleted: name };
    },
  },
};
