import type { ServerTransfer } from '../contract/admin-server-transfer';
import type { ApplicationServer } from '../contract/admin-servers';
import type { AdminEgg, AdminEggVariable } from '../contract/eggs';
import type { Node, NodeAllocation } from '../contract/nodes';
import { json, stubFetch, type FetchCall } from './server-test-fixtures';

/*
 * The application API as the admin area's server pages read it, stubbed: servers, nodes with
 * their free allocations, nests with their eggs, an egg's variables, users and the latest
 * transfer. Writes are recorded; POST /servers answers 201 with a server, PATCH .../startup and
 * .../build echo the server, and `refuse` answers a path with a 422 on one field.
 */

const T = '2026-01-01T00:00:00+00:00';
export const attrs = (o: Record<string, unknown>) => ({ object: 'x', attributes: o });
export const pageOf = (items: object[], object = 'x') => ({
  object: 'list',
  data: items.map((attributes) => ({ object, attributes })),
  meta: { pagination: { total: items.length, count: items.length, per_page: 50, current_page: 1, total_pages: 1, links: {} } },
});
export const refusal = (status: number, detail: string, field?: string) =>
  json(status, {
    errors: [{ code: 'ValidationException', status: String(status), detail, ...(field ? { meta: { source_field: field, rule: 'rules' } } : {}) }],
  });

export const adminServer = (id: number, name: string, extra: Partial<ApplicationServer> = {}): ApplicationServer => ({
  id,
  external_id: null,
  uuid: `00000000-0000-4000-8000-00000000000${id}`,
  identifier: `0000000${id}`,
  name,
  description: null,
  status: null,
  suspended: false,
  limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100, threads: null, oom_disabled: false },
  feature_limits: { databases: 0, allocations: 0, backups: 0 },
  user: 1,
  node: 1,
  allocation: 7,
  nest: 1,
  egg: 1,
  container: { startup_command: './run', image: 'ghcr.io/demo:1', installed: 1, environment: {}, skip_scripts: false },
  created_at: T,
  updated_at: T,
  relationships: {
    user: attrs({ email: 'ann@example.test', username: 'ann' }),
    node: attrs({ name: 'Local node' }),
    egg: attrs({ name: 'Demo game', docker_images: { Demo: 'ghcr.io/demo:1' } }),
    allocations: { object: 'list', data: [attrs({ id: 7, ip: '127.0.0.1', alias: null, port: 25565 })] },
    variables: {
      object: 'list',
      data: [
        attrs({ name: 'Max players', env_variable: 'MAX_PLAYERS', rules: 'required|integer|between:1,100', server_value: '10', description: '' }),
      ],
    },
  },
  ...extra,
});

export const adminNode = (id: number, name: string, location: number | null): Node => ({
  id,
  uuid: `10000000-0000-4000-8000-00000000000${id}`,
  public: true,
  name,
  description: null,
  location_id: location,
  fqdn: '127.0.0.1',
  scheme: 'http',
  behind_proxy: false,
  maintenance_mode: false,
  memory: 0,
  memory_overallocate: 0,
  disk: 0,
  disk_overallocate: 0,
  upload_size: 100,
  daemon_listen: 8080,
  daemon_sftp: 2022,
  daemon_base: '/var/lib/pterodactyl/volumes',
  created_at: T,
  updated_at: T,
  allocated_resources: { memory: 0, disk: 0 },
});

export const freeAllocation = (id: number, port: number): NodeAllocation => ({
  id,
  ip: '127.0.0.1',
  alias: null,
  port,
  notes: null,
  assigned: false,
});

export const adminEgg = (id: number, name: string, extra: Partial<AdminEgg> = {}): AdminEgg => {
  const slug = name.toLowerCase().replace(/\W/g, '');
  const images = extra.docker_images ?? { [name]: `ghcr.io/${slug}:1` };
  return {
    id,
    uuid: `20000000-0000-4000-8000-00000000000${id}`,
    name,
    nest: 1,
    author: 'admin@example.test',
    description: null,
    // The reference's first image.
    docker_image: Object.values(images)[0] ?? '',
    docker_images: images,
    config: { files: {}, startup: {}, stop: 'stop', logs: {}, file_denylist: [], extends: null },
    startup: `./${slug}`,
    script: { privileged: false, install: null, entry: 'bash', container: 'alpine', extends: null },
    created_at: T,
    updated_at: T,
    ...extra,
  };
};

export const eggVariable = (egg: number, env: string, extra: Partial<AdminEggVariable> = {}): AdminEggVariable => ({
  id: egg * 10 + env.length,
  egg_id: egg,
  name: env,
  description: '',
  env_variable: env,
  default_value: '',
  user_viewable: true,
  user_editable: true,
  rules: 'nullable|string',
  created_at: T,
  updated_at: T,
  ...extra,
});

/** The one user the owner search finds. */
export const owner = {
  id: 5,
  external_id: null,
  uuid: '30000000-0000-4000-8000-000000000005',
  username: 'ann',
  email: 'ann@example.test',
  first_name: 'Ann',
  last_name: 'Example',
  language: 'en',
  root_admin: false,
  '2fa': false,
  created_at: T,
  updated_at: T,
};

export interface AdminPanel {
  servers?: ApplicationServer[];
  nodes?: Node[];
  /** Free allocations by node id. */
  free?: Record<number, NodeAllocation[]>;
  nests?: { id: number; name: string; eggs: AdminEgg[] }[];
  /** Variables by egg id. */
  variables?: Record<number, AdminEggVariable[]>;
  /** The latest transfer; undefined: a panel without the route (404). */
  transfer?: ServerTransfer | null;
  /** Answers writes to a path ending so with a 422 on `field`. */
  refuse?: { path: string; detail: string; field: string };
}

export function stubAdminPanel(panel: AdminPanel = {}) {
  let servers = panel.servers ?? [adminServer(1, 'Survival'), adminServer(2, 'Creative', { status: 'suspended', suspended: true })];
  const calls: FetchCall[] = [];
  stubFetch((url, call) => {
    calls.push(call);
    const path = url.pathname.replace('/api/application', '');
    const parts = path.split('/');
    if (path === '/nodes') return json(200, pageOf(panel.nodes ?? [], 'node'));
    if (path.startsWith('/nodes/') && path.endsWith('/allocations')) return json(200, pageOf(panel.free?.[Number(parts[2])] ?? [], 'allocation'));
    if (path === '/nests') {
      const nests = (panel.nests ?? []).map((n) => ({
        id: n.id,
        uuid: `n${n.id}`,
        author: 'a',
        name: n.name,
        description: null,
        created_at: T,
        updated_at: T,
        relationships: { eggs: pageOf(n.eggs, 'egg') },
      }));
      return json(200, pageOf(nests, 'nest'));
    }
    if (path.startsWith('/nests/')) {
      const egg = (panel.nests ?? []).flatMap((n) => n.eggs).find((e) => e.id === Number(parts[4]));
      if (!egg) return refusal(404, 'The requested resource does not exist on this server.');
      return json(200, {
        object: 'egg',
        attributes: { ...egg, relationships: { variables: pageOf(panel.variables?.[egg.id] ?? [], 'egg_variable') } },
      });
    }
    if (path.startsWith('/users')) return json(200, pageOf([owner], 'user'));
    if (path === '/servers' && call.method === 'GET') {
      const name = url.searchParams.get('filter[name]');
      return json(
        200,
        pageOf(
          servers.filter((s) => !name || s.name.includes(name)),
          'server',
        ),
      );
    }
    if (path === '/servers' && call.method === 'POST') return json(201, { object: 'server', attributes: adminServer(9, 'Made') });
    if (path.endsWith('/transfer')) {
      return panel.transfer === undefined
        ? refusal(404, 'The requested resource does not exist on this server.')
        : json(200, { object: 'server_transfer', attributes: panel.transfer });
    }
    const found = servers.find((s) => s.id === Number(parts[2]));
    if (!found) return refusal(404, 'The requested resource does not exist on this server.');
    if (call.method === 'GET') return json(200, { object: 'server', attributes: found });
    if (panel.refuse && path.endsWith(panel.refuse.path)) return refusal(422, panel.refuse.detail, panel.refuse.field);
    if (path.endsWith('/suspend')) {
      servers = servers.map((s) => (s.id === found.id ? { ...s, status: 'suspended', suspended: true } : s));
      return new Response(null, { status: 204 });
    }
    if (path.endsWith('/startup') || path.endsWith('/build')) return json(200, { object: 'server', attributes: found });
    return refusal(405, 'Method not allowed.');
  });
  return { calls, writes: () => calls.filter((c) => c.method !== 'GET') };
}
