import type { OverviewNode } from '../../contract/admin-overview';
import type { Node, NodeAllocation } from '../../contract/nodes';
import { json, stubFetch, type FetchCall } from '../../test/server-test-fixtures';

/*
 * A fake application API for the nodes pages' component tests: two nodes (the panel's own, and
 * "wings-1" with two allocations, one held by a server), one location, and the overview's health.
 */

export const makeNode = (id: number, name: string, extra: Partial<Node> = {}): Node => ({
  id,
  uuid: `00000000-0000-4000-8000-00000000000${String(id)}`,
  public: true,
  name,
  description: null,
  location_id: 1,
  fqdn: `${name}.example.test`,
  scheme: 'https',
  behind_proxy: false,
  maintenance_mode: false,
  memory: 8192,
  memory_overallocate: 0,
  disk: 102400,
  disk_overallocate: 0,
  upload_size: 100,
  daemon_listen: 8080,
  daemon_sftp: 2022,
  daemon_base: '/var/lib/pterodactyl/volumes',
  created_at: '2026-01-01T00:00:00+00:00',
  updated_at: '2026-01-01T00:00:00+00:00',
  allocated_resources: { memory: 2048, disk: 0 },
  ...extra,
});

const allocation = (id: number, port: number, assigned: boolean): NodeAllocation => ({
  id,
  ip: '10.0.0.5',
  alias: null,
  port,
  notes: null,
  assigned,
});

const health = (node: Node, extra: Partial<OverviewNode>): OverviewNode => ({
  id: node.id,
  uuid: node.uuid,
  name: node.name,
  local: false,
  reachable: true,
  version: '1.11.0',
  reason: null,
  last_seen: null,
  servers: 0,
  memory: { allocated: 0, total: 0 },
  disk: { allocated: 0, total: 0 },
  ...extra,
});

export const pageOf = <T>(object: string, items: T[]) => ({
  object: 'list',
  data: items.map((attributes) => ({ object, attributes })),
  meta: { pagination: { total: items.length, count: items.length, per_page: 50, current_page: 1, total_pages: 1, links: {} } },
});

export const refusal = (status: number, detail: string, field?: string) =>
  json(status, {
    errors: [
      {
        code: status === 422 ? 'ValidationException' : 'DisplayException',
        status: String(status),
        detail,
        ...(field ? { meta: { source_field: field, rule: 'required' } } : {}),
      },
    ],
  });

export const CONFIGURATION = {
  debug: false,
  uuid: '00000000-0000-4000-8000-000000000002',
  token_id: 'tokenid',
  token: 'secret-token',
  api: { host: '0.0.0.0', port: 8080, ssl: { enabled: true, cert: '/c', key: '/k' }, upload_limit: 100 },
  system: { data: '/var/lib/pterodactyl/volumes', sftp: { bind_port: 2022 } },
  allowed_mounts: [],
  remote: 'https://panel.example.test',
  allowed_origins: [],
};

export function stubNodesPanel({ overview = true }: { overview?: boolean } = {}) {
  const local = makeNode(1, 'local', { allocated_resources: { memory: 1024, disk: 0 }, memory: 0, disk: 0 });
  let nodes = [local, makeNode(2, 'wings-1')];
  let allocations = [allocation(10, 25565, true), allocation(11, 25566, false)];
  const calls: FetchCall[] = [];
  stubFetch((url, call) => {
    calls.push(call);
    const { method, body } = call;
    const path = url.pathname;
    if (path === '/api/application/overview') {
      if (!overview) return refusal(404, 'The requested route could not be found.');
      return json(200, {
        object: 'admin_overview',
        attributes: {
          panel_version: '0.1.0',
          nodes: [
            health(local, { local: true, version: '0.1.0', servers: 3 }),
            health(nodes[1] ?? local, { reachable: false, version: null, reason: 'connect ECONNREFUSED', servers: 1 }),
          ],
          activity: [],
        },
      });
    }
    if (path === '/api/application/locations')
      return json(
        200,
        pageOf('location', [{ id: 1, short: 'eu', long: null, created_at: '2026-01-01T00:00:00+00:00', updated_at: '2026-01-01T00:00:00+00:00' }]),
      );
    if (path === '/api/application/nodes' && method === 'GET') {
      const name = url.searchParams.get('filter[name]') ?? '';
      return json(
        200,
        pageOf(
          'node',
          nodes.filter((n) => n.name.includes(name)),
        ),
      );
    }
    if (path === '/api/application/nodes' && method === 'POST') {
      const made = makeNode(3, (body as { name: string }).name);
      nodes = [...nodes, made];
      return json(201, { object: 'node', attributes: made, meta: { resource: 'http://panel.test/api/application/nodes/3' } });
    }
    const [, id, sub, allocationId] = /^\/api\/application\/nodes\/(\d+)(?:\/(\w+))?(?:\/(\d+))?$/.exec(path) ?? [];
    const node = nodes.find((n) => String(n.id) === id);
    if (!node) return refusal(404, 'The requested resource does not exist on this server.');
    if (sub === 'configuration') {
      return node.id === 1 ? refusal(400, "The panel's own node runs inside the panel: it has no config.yml.") : json(200, CONFIGURATION);
    }
    if (sub === 'allocations') {
      const found = allocations.find((a) => String(a.id) === allocationId);
      if (method === 'GET') return json(200, pageOf('allocation', allocations));
      if (method === 'POST') {
        const b = body as { ip: string; ports: string[] };
        if (b.ports.includes('80')) return refusal(400, 'Ports in an allocation must be greater than 1024 and less than or equal to 65535.');
        allocations = [...allocations, allocation(12, 25600, false)];
        return new Response(null, { status: 204 });
      }
      if (!found) return refusal(404, 'The requested resource does not exist on this server.');
      if (method === 'PATCH') {
        const changed = { ...found, alias: (body as { ip_alias: string | null }).ip_alias };
        allocations = allocations.map((a) => (a.id === found.id ? changed : a));
        return json(200, { object: 'allocation', attributes: changed });
      }
      if (found.assigned) return refusal(400, 'Cannot delete an allocation that is currently assigned to a server.');
      allocations = allocations.filter((a) => a.id !== found.id);
      return new Response(null, { status: 204 });
    }
    if (method === 'GET') return json(200, { object: 'node', attributes: node });
    if (method === 'DELETE') {
      if (node.id === 2) return refusal(400, 'Cannot delete a node with active servers attached to it.');
      nodes = nodes.filter((n) => n.id !== node.id);
      return new Response(null, { status: 204 });
    }
    return refusal(405, 'Method not allowed.');
  });
  return { writes: () => calls.filter((c) => c.method !== 'GET') };
}
