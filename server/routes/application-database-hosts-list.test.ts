import { describe, expect } from 'vitest';
import { databaseHostListSchema } from '../../src/contract/admin-database-hosts';
import { databaseHosts } from '../db/repos';
import { test } from '../test/fixtures';

/*
 * The database host list's search and pages (the admin area's list): hosts are written straight to
 * the table, as listing never connects to them, so no MariaDB is needed here.
 */

const it = test.extend('list', async ({ panel }) => {
  const session = await panel.sessionHeaders(await panel.user({ admin: true }));
  const now = new Date().toISOString();
  for (const name of ['eu-main', 'EU-backup', 'us-main']) {
    await databaseHosts.insert(panel.db, {
      name,
      host: '127.0.0.1',
      port: 3306,
      username: 'root',
      password: 'sealed',
      max_databases: null,
      node_id: null,
      created_at: now,
      updated_at: now,
    });
  }
  return async (query: string) => {
    const res = await panel.app.inject({ method: 'GET', url: `/api/application/database-hosts${query}`, headers: session });
    return { status: res.statusCode, body: res.body };
  };
});

const names = (body: string) => databaseHostListSchema.parse(JSON.parse(body)).data.map((h) => h.attributes.name);

describe('the database host list', () => {
  it('keeps the hosts whose name holds filter[name], in any case, counting only those', async ({ list }) => {
    const res = await list('?filter[name]=eu');
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['eu-main', 'EU-backup']);
    expect(databaseHostListSchema.parse(JSON.parse(res.body)).meta.pagination).toMatchObject({ total: 2, total_pages: 1 });
    expect(names((await list('?filter[name]=nothing')).body)).toEqual([]);
  });

  it('pages the filtered hosts by per_page', async ({ list }) => {
    const second = await list('?filter[name]=main&per_page=1&page=2');
    expect(names(second.body)).toEqual(['us-main']);
    expect(databaseHostListSchema.parse(JSON.parse(second.body)).meta.pagination).toMatchObject({ total: 2, current_page: 2, total_pages: 2 });
  });

  it('refuses a filter the list does not offer, as every list does', async ({ list }) => {
    expect((await list('?filter[host]=127')).status).toBe(400);
  });
});
