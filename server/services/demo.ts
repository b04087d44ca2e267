import type { ActivityEvent } from '../../src/contract';
import { DEFAULT_ALLOCATION_PORTS } from '../config';
import type { PortRange } from './allocations';
import type { Db } from '../db';
import { allocations, eggs, servers as serverRepo, users } from '../db/repos';
import type { NodeDaemons } from './node-daemons';
import type { ServerRow, UserRow } from '../db/schema';
import { writeDemoTree } from '../daemon/demo-tree';
import { logActivity, type ActivityInput } from './activity';
import { createServer } from './servers';
import { addSubuser } from './subusers';
import { createUser } from './users';

/*
 * Demo data for a first start (`npm start` on an empty data dir) and `panel demo`: a root admin,
 * a regular user, six servers with allocations, egg variables and a few days of activity. The
 * passwords are printed on purpose: this is a showroom, not an install.
 */

export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@aerie.test', username: 'admin', password: 'aerie-admin', firstName: 'Ada', lastName: 'Admin' },
  user: { email: 'demo@aerie.test', username: 'demo', password: 'aerie-demo', firstName: 'Dana', lastName: 'Demo' },
} as const;

export interface DemoSummary {
  accounts: { role: 'admin' | 'user'; email: string; username: string; password: string }[];
  servers: { identifier: string; name: string; owner: string; status: string | null }[];
}

/** True when no user exists yet: the only state in which demo data may be written. */
export async function isPanelEmpty(db: Db): Promise<boolean> {
  return !(await users.hasAny(db));
}

interface DemoServerSpec {
  key: string;
  owner: 'admin' | 'user';
  name: string;
  description: string;
  memory: number;
  disk: number;
  cpu: number;
  // Never 'installing': nothing would end that install, and it would block every page until a restart.
  status?: 'suspended';
  /** Extra allocations: the note shown in the network tab; ports follow the primaries in the node's range. */
  extra?: { notes: string | null }[];
}

const SERVERS: DemoServerSpec[] = [
  {
    key: 'survival',
    owner: 'admin',
    name: 'Survival SMP',
    description: 'The main survival world. Whitelist only.',
    memory: 4096,
    disk: 20480,
    cpu: 200,
    extra: [{ notes: 'Dynmap web map' }, { notes: 'Voice chat (UDP)' }],
  },
  {
    key: 'creative',
    owner: 'admin',
    name: 'Creative Build',
    description: 'Flat world for build contests.',
    memory: 2048,
    disk: 10240,
    cpu: 100,
    status: 'suspended',
  },
  {
    key: 'modded',
    owner: 'admin',
    name: 'Modded Testbed',
    description: 'Trying out a new modpack before it goes live.',
    memory: 6144,
    disk: 30720,
    cpu: 300,
  },
  {
    key: 'vanilla',
    owner: 'user',
    name: 'Friends Vanilla',
    description: 'Weekend server for friends.',
    memory: 2048,
    disk: 8192,
    cpu: 100,
    extra: [{ notes: 'Query port' }],
  },
  {
    key: 'lobby',
    owner: 'user',
    name: 'Minigames Lobby',
    description: 'Hub with parkour and bed wars queues.',
    memory: 3072,
    disk: 10240,
    cpu: 150,
    extra: [{ notes: null }],
  },
  {
    key: 'skyblock',
    owner: 'user',
    name: 'Skyblock',
    description: '',
    memory: 1024,
    disk: 5120,
    cpu: 100,
  },
];

/** Unassigned ports on the local node, so "create allocation" has something to hand out. */
const FREE_PORT_COUNT = 4;

const SUBUSER_PERMISSIONS = [
  'control.console',
  'control.start',
  'control.restart',
  'file.read',
  'file.read-content',
  'file.update',
  'backup.read',
  'allocation.read',
  'startup.read',
  'activity.read',
];

const HOUR = 3_600_000;
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/**
 * Seeds the demo data into an empty panel. Refuses (throws) when any user exists, so it can never
 * mix demo accounts with real ones.
 */
export async function seedDemo(db: Db, nodes: NodeDaemons, now: Date, ports: PortRange = DEFAULT_ALLOCATION_PORTS): Promise<DemoSummary> {
  // Demo servers live on this panel's own node.
  const daemon = nodes.local;
  if (!(await isPanelEmpty(db))) throw new Error('The data dir already has users; demo data is only written into an empty panel.');
  const created = now;
  const admin = await createUser(db, { ...DEMO_ACCOUNTS.admin, admin: true }, created);
  const user = await createUser(db, { ...DEMO_ACCOUNTS.user, admin: false }, created);
  const owners = { admin, user };

  const servers = new Map<string, ServerRow>();
  for (const spec of SERVERS) {
    const owner = owners[spec.owner];
    let server = await createServer(
      db,
      nodes,
      { ownerId: owner.id, name: spec.name, description: spec.description, memory: spec.memory, disk: spec.disk, cpu: spec.cpu, ports },
      created,
    );
    await setVariables(db, server, spec.name);
    if (spec.status) {
      server = await serverRepo.setStatus(db, server.id, spec.status, created);
    }
    await writeDemoTree(daemon.files, server.uuid);
    servers.set(spec.key, server);
  }
  // Extra ports come after every primary one, which createServer takes from the bottom of the range.
  let next = ports.start + SERVERS.length;
  for (const spec of SERVERS) {
    const server = mustGet(servers, spec.key);
    for (const extra of spec.extra ?? []) {
      if (next > ports.end) break;
      await allocations.insert(db, {
        node_id: server.node_id,
        ip: '127.0.0.1',
        ip_alias: null,
        port: next++,
        server_id: server.id,
        notes: extra.notes,
      });
    }
    // Variables, status and extra ports changed since the node fetched the configuration.
    await daemon.servers.sync(server.uuid);
  }
  const nodeId = servers.get('survival')?.node_id;
  const free = Array.from({ length: FREE_PORT_COUNT }, (_, i) => next + i).filter((port) => port <= ports.end);
  if (nodeId !== undefined && free.length > 0) {
    await allocations.insertMany(
      db,
      free.map((port) => ({ node_id: nodeId, ip: '127.0.0.1', ip_alias: null, port, server_id: null, notes: null })),
    );
  }

  const survival = mustGet(servers, 'survival');
  await addSubuser(db, survival, user.email, SUBUSER_PERMISSIONS, created);
  await seedActivity(db, { admin, user }, servers, now);

  return {
    accounts: [
      { role: 'admin', email: admin.email, username: admin.username, password: DEMO_ACCOUNTS.admin.password },
      { role: 'user', email: user.email, username: user.username, password: DEMO_ACCOUNTS.user.password },
    ],
    servers: SERVERS.map((spec) => {
      const s = mustGet(servers, spec.key);
      return { identifier: s.uuid_short, name: s.name, owner: owners[spec.owner].email, status: spec.status ?? null };
    }),
  };
}

/** Server-specific values for the demo game egg's variables (the rest keep their defaults). */
async function setVariables(db: Db, server: ServerRow, name: string): Promise<void> {
  const vars = await eggs.variablesOf(db, [server.egg_id]);
  const values: Record<string, string> = { MOTD: `Welcome to ${name}` };
  const rows = vars
    .filter((v) => values[v.env_variable] !== undefined)
    .map((v) => ({ server_id: server.id, variable_id: v.id, variable_value: values[v.env_variable] ?? '' }));
  await serverRepo.insertVariableValues(db, rows);
}

function mustGet<K, V>(map: Map<K, V>, key: K): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`demo data: missing ${String(key)}`);
  return value;
}

type EntrySpec = [hoursAgo: number, event: ActivityEvent, actor: 'admin' | 'user', properties: Record<string, unknown>];

/** A few days of believable history per server, newest last; nothing that names a backup or port the demo lacks. */
function serverHistory(name: string): Record<string, EntrySpec[]> {
  return {
    survival: [
      [70, 'server:power.start', 'admin', {}],
      [69, 'server:console.command', 'admin', { command: 'whitelist add Steve' }],
      [52, 'server:subuser.create', 'admin', { email: DEMO_ACCOUNTS.user.email, permissions: SUBUSER_PERMISSIONS }],
      [48, 'server:file.write', 'admin', { file: '/server.properties' }],
      [47, 'server:power.restart', 'admin', {}],
      [20, 'server:console.command', 'user', { command: 'say Restarting in 5 minutes' }],
      [19, 'server:power.restart', 'user', {}],
      [6, 'server:file.write', 'user', { file: '/config/paper-world-defaults.yml' }],
      [2, 'server:console.command', 'user', { command: 'tps' }],
    ],
    creative: [
      [96, 'server:power.start', 'admin', {}],
      [90, 'server:file.rename', 'admin', { directory: '/', files: [{ from: 'world_old', to: 'world_archive' }] }],
      [40, 'server:power.stop', 'admin', {}],
      [39, 'server:settings.rename', 'admin', { old: 'Creative', new: name }],
    ],
    modded: [
      [3, 'server:startup.image', 'admin', { old: 'ghcr.io/pterodactyl/yolks:java_21', new: 'ghcr.io/pterodactyl/yolks:java_17' }],
      [1, 'server:reinstall', 'admin', {}],
    ],
    vanilla: [
      [80, 'server:power.start', 'user', {}],
      [60, 'server:settings.rename', 'user', { old: 'My Server', new: 'Friends Vanilla' }],
      [58, 'server:console.command', 'user', { command: 'difficulty hard' }],
      [33, 'server:file.write', 'user', { file: '/ops.json' }],
      [32, 'server:file.create-directory', 'user', { directory: '/', name: 'plugins' }],
      [4, 'server:console.command', 'user', { command: 'weather clear' }],
    ],
    lobby: [
      [50, 'server:power.start', 'user', {}],
      [45, 'server:file.uploaded', 'user', { directory: '/plugins', file: 'BedWars.jar' }],
      [44, 'server:power.restart', 'user', {}],
      [10, 'server:console.command', 'user', { command: 'bw reload' }],
    ],
    skyblock: [
      [100, 'server:power.start', 'user', {}],
      [8, 'server:file.delete', 'user', { directory: '/logs', files: ['2024-01-01-1.log.gz', '2024-01-02-1.log.gz'] }],
    ],
  };
}

async function seedActivity(db: Db, users: { admin: UserRow; user: UserRow }, servers: Map<string, ServerRow>, now: Date): Promise<void> {
  const ips = { admin: '203.0.113.10', user: '198.51.100.24' };
  const entries: ActivityInput[] = [];
  for (const [key, server] of servers) {
    for (const [hoursAgo, event, actor, properties] of serverHistory(server.name)[key] ?? []) {
      entries.push({
        event,
        ip: ips[actor],
        actorId: users[actor].id,
        properties,
        subjects: [{ type: 'server', id: server.id }],
        timestamp: new Date(now.getTime() - hoursAgo * HOUR),
      });
    }
  }
  for (const [actor, hoursAgo] of [
    ['admin', 72],
    ['user', 21],
    ['admin', 27],
    ['user', 5],
  ] as const) {
    entries.push({
      event: 'auth:success',
      ip: ips[actor],
      actorId: users[actor].id,
      properties: { useragent: USER_AGENT },
      subjects: [{ type: 'user', id: users[actor].id }],
      timestamp: new Date(now.getTime() - hoursAgo * HOUR),
    });
  }
  entries.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
  for (const entry of entries) await logActivity(db, entry);
}
