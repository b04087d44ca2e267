import { describe, expect } from 'vitest';
import { activityLogListSchema } from '../../src/contract/activity';
import { activity } from '../db/repos';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

/*
 * The admin activity log page's endpoint: a root admin's browser session only (as the overview),
 * every `admin:` entry newest first, paged and filtered by event; nothing from the client area.
 */

const get = (panel: TestPanel, headers: Record<string, string>, query = '') =>
  panel.app.inject({ url: `/api/application/activity${query}`, headers });

describe('GET /api/application/activity', () => {
  it('refuses every application key, even a root admin’s holding every resource, and users who are not root admins', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const user = await panel.user();
    for (const headers of [await panel.applicationHeaders(admin), await panel.sessionHeaders(user), await panel.applicationHeaders(user)]) {
      const res = await get(panel, headers);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().errors[0].status).toBe('403');
    }
    expect((await get(panel, await panel.bearerHeaders(admin))).statusCode).toBe(401);
    expect((await get(panel, {})).statusCode).toBe(401);
  });

  it('shows a root admin the admin entries only, newest first with their actors, a page at a time and by event', async ({ panel }) => {
    const admin = await panel.user({ admin: true, username: 'boss' });
    const owner = await panel.user();
    const at = (s: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, s));
    for (let i = 0; i < 5; i += 1) {
      await activity.insert(panel.db, {
        event: i % 2 === 0 ? 'admin:node.update' : 'admin:location.create',
        ip: '10.0.0.1',
        actorId: admin.id,
        properties: { name: `n${String(i)}` },
        subjects: [],
        timestamp: at(i * 2),
      });
      await activity.insert(panel.db, { event: 'server:power.start', ip: '10.0.0.2', actorId: owner.id, subjects: [], timestamp: at(i * 2 + 1) });
    }
    const headers = await panel.sessionHeaders(admin);

    const first = await get(panel, headers, '?per_page=2');
    expect(first.statusCode, first.body).toBe(200);
    const page1 = activityLogListSchema.parse(first.json());
    expect(page1.meta.pagination).toMatchObject({ total: 5, count: 2, per_page: 2, current_page: 1, total_pages: 3 });
    expect(page1.data.map((e) => e.attributes.properties.name)).toEqual(['n4', 'n3']);
    const actor = page1.data[0]?.attributes.relationships?.actor;
    expect(actor?.object === 'user' && actor.attributes.username).toBe('boss');

    const oldest = activityLogListSchema.parse((await get(panel, headers, '?per_page=2&sort=timestamp')).json());
    expect(oldest.data.map((e) => e.attributes.properties.name)).toEqual(['n0', 'n1']);

    const last = activityLogListSchema.parse((await get(panel, headers, '?per_page=2&page=3')).json());
    expect(last.data.map((e) => e.attributes.properties.name)).toEqual(['n0']);

    const nodesOnly = activityLogListSchema.parse((await get(panel, headers, '?filter[event]=node.')).json());
    expect(nodesOnly.data.map((e) => e.attributes.event)).toEqual(['admin:node.update', 'admin:node.update', 'admin:node.update']);
    // A LIKE wildcard is a plain character here.
    expect(activityLogListSchema.parse((await get(panel, headers, '?filter[event]=%25')).json()).data).toEqual([]);

    expect((await get(panel, headers, '?filter[ip]=10.0.0.1')).statusCode).toBe(400);
    expect((await get(panel, headers, '?per_page=1000')).statusCode).toBe(422);
  });
});
