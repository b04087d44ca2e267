import { ensureDefaultNode, findEgg } from '../services/servers';
import { randomUUID } from 'node:crypto';
import type { NodeRow } from '../db/schema';
import type { TestPanel } from './harness';

/*
 * The application API's servers as a billing system reaches them: a root admin's application key,
 * the panel's node in a location, the demo game egg, and a creation body by deployment.
 */

type Headers = Record<string, string>;

/** A remote node's row reached at `url` (a loopback port where nothing listens makes a silent node), with `extra` columns. */
export function insertRemoteNode(panel: TestPanel, name: string, url = 'http://127.0.0.1:9', extra: Partial<NodeRow> = {}): Promise<NodeRow> {
  return panel.db
    .insertInto('nodes')
    .values({
      uuid: randomUUID(),
      name,
      fqdn: '127.0.0.1',
      sftp_port: 2022,
      maintenance_mode: 0,
      daemon_base_url: url,
      ...extra,
      ...panel.nodes.newCredentials(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function billing(panel: TestPanel) {
  const admin = await panel.user({ admin: true });
  const key = await panel.applicationHeaders(admin);
  const node = await ensureDefaultNode(panel.db, panel.nodes);
  const ts = panel.clock.now().toISOString();
  const location = await panel.db
    .insertInto('locations')
    .values({ short: 'eu-west', long: 'Europe', created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
  await panel.db.updateTable('nodes').set({ location_id: location.id }).where('id', '=', node.id).execute();
  const egg = await findEgg(panel.db, 'Demo game');
  if (!egg) throw new Error('no demo egg');
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Headers = key) =>
    panel.app.inject({ method, url: `/api/application${url}`, headers, ...(payload ? { payload } : {}) });
  /** A creation body by deployment on the location, with `overrides` merged in. */
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: 'Billing server',
    user: 0,
    egg: egg.id,
    docker_image: Object.values(egg.docker_images)[0],
    startup: egg.startup,
    environment: { MOTD: 'Welcome', MAX_PLAYERS: 10 },
    limits: { memory: 512, swap: 0, disk: 1024, io: 500, cpu: 100 },
    feature_limits: { databases: 1, allocations: 2, backups: 1 },
    deploy: { locations: [location.id], dedicated_ip: false, port_range: [] },
    ...overrides,
  });
  const serverCount = async () => (await panel.db.selectFrom('servers').select('id').execute()).length;
  return { admin, key, node, location, egg, call, body, serverCount };
}
