import { describe, expect } from 'vitest';
import { nodeAllocationSchema } from '../../src/contract/nodes';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

/*
 * Aerie's own `PATCH /api/application/nodes/:node/allocations/:allocation` (issue 25 §3: the node
 * page sets an allocation's alias): the alias and notes, the `allocations` write grant, 404 for
 * another node's allocation, the activity entry.
 */

type Headers = Record<string, string>;
const patch = (panel: TestPanel, url: string, headers: Headers, payload: object) =>
  panel.app.inject({ method: 'PATCH', url: `/api/application${url}`, headers, payload });

async function setup(panel: TestPanel) {
  const admin = await panel.user({ admin: true });
  const headers = await panel.applicationHeaders(admin);
  const node = await panel.remoteNode('wings-1');
  const base = `/nodes/${String(node.id)}/allocations`;
  const made = await panel.app.inject({ method: 'POST', url: `/api/application${base}`, headers, payload: { ip: '10.0.0.5', ports: ['25565'] } });
  expect(made.statusCode, made.body).toBe(204);
  const row = await panel.db.selectFrom('allocations').selectAll().where('node_id', '=', node.id).executeTakeFirstOrThrow();
  return { admin, headers, node, row, url: `${base}/${String(row.id)}` };
}

describe('PATCH /api/application/nodes/:node/allocations/:allocation', () => {
  it('sets and clears the alias and notes, keeping what is left out, and logs the change', async ({ panel }) => {
    const { headers, row, url } = await setup(panel);
    const set = await patch(panel, url, headers, { ip_alias: ' play.example.com ', notes: 'the lobby' });
    expect(set.statusCode, set.body).toBe(200);
    expect(nodeAllocationSchema.parse(set.json())).toEqual({
      object: 'allocation',
      attributes: { id: row.id, ip: '10.0.0.5', alias: 'play.example.com', port: 25565, notes: 'the lobby', assigned: false },
    });
    const kept = nodeAllocationSchema.parse((await patch(panel, url, headers, { ip_alias: '' })).json());
    expect(kept.attributes).toMatchObject({ alias: null, notes: 'the lobby' });
    const cleared = nodeAllocationSchema.parse((await patch(panel, url, headers, { notes: null })).json());
    expect(cleared.attributes).toMatchObject({ alias: null, notes: null });

    const events = await panel.db.selectFrom('activity_logs').select('properties').where('event', '=', 'admin:allocation.update').execute();
    expect(events).toHaveLength(3);
    expect(JSON.parse(events[0]?.properties ?? '{}')).toMatchObject({ allocation: '10.0.0.5:25565', node: 'wings-1', ip_alias: 'play.example.com' });
  });

  it('needs the allocations write grant, refuses what is too long, and answers 404 for another node’s allocation', async ({ panel }) => {
    const { admin, headers, row, url } = await setup(panel);
    expect((await patch(panel, url, await panel.applicationHeaders(admin, { allocations: 1 }), { ip_alias: 'x' })).statusCode).toBe(403);
    expect((await patch(panel, url, await panel.applicationHeaders(admin, { allocations: 2 }), { ip_alias: 'x' })).statusCode).toBe(200);
    expect((await patch(panel, url, await panel.bearerHeaders(admin), { ip_alias: 'x' })).statusCode).toBe(401);
    const long = await patch(panel, url, headers, { ip_alias: 'a'.repeat(192) });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors[0].meta.source_field).toBe('ip_alias');

    const other = await panel.remoteNode('wings-2');
    const elsewhere = await patch(panel, `/nodes/${String(other.id)}/allocations/${String(row.id)}`, headers, { ip_alias: 'y' });
    expect(elsewhere.statusCode).toBe(404);
    const stored = await panel.db.selectFrom('allocations').select('ip_alias').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(stored.ip_alias).toBe('x');
  });
});
