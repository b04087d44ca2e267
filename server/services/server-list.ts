import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db';
import type { Database, ServerRow } from '../db/schema';
import type { Pagination, ServerListQuery } from '../../src/contract';
import type { ServerViewer } from './server-view';

/*
 * The server list query of GET /api/client (spec §4.16, pterodactyl-facts §6): a `type` scope,
 * the partial filters and the free-text `filter[*]`, ANDed, ordered by id, one page at a time.
 */

type Eb = ExpressionBuilder<Database, 'servers'>;

export interface ServerPage {
  servers: ServerRow[];
  total: number;
}

export async function listServers(db: Db, viewer: ServerViewer, query: ServerListQuery): Promise<ServerPage> {
  // The admin scopes answer an empty list, not 403, for everyone else (pterodactyl-facts §6, T-AZ-1).
  if ((query.type === 'admin' || query.type === 'admin-all') && !viewer.isAdmin) return { servers: [], total: 0 };

  const where = (eb: Eb): Expression<SqlBool> => eb.and([scope(eb, viewer, query.type), ...filters(eb, query)]);
  const countRow = await db
    .selectFrom('servers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(where)
    .executeTakeFirst();
  const total = Number(countRow?.n ?? 0);
  const offset = (query.page - 1) * query.per_page;
  const servers =
    total > offset ? await db.selectFrom('servers').selectAll().where(where).orderBy('id').limit(query.per_page).offset(offset).execute() : [];
  return { servers, total };
}

function scope(eb: Eb, viewer: ServerViewer, type: ServerListQuery['type']): Expression<SqlBool> {
  const shared = eb.selectFrom('subusers').select('subusers.server_id').where('subusers.user_id', '=', viewer.userId);
  switch (type) {
    case 'owner':
      return eb('servers.owner_id', '=', viewer.userId);
    case 'admin':
      return eb.and([eb('servers.owner_id', '!=', viewer.userId), eb('servers.id', 'not in', shared)]);
    case 'admin-all':
      return eb.lit(true);
    default:
      return eb.or([eb('servers.owner_id', '=', viewer.userId), eb('servers.id', 'in', shared)]);
  }
}

function filters(eb: Eb, query: ServerListQuery): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  const partial = [
    ['servers.uuid', query['filter[uuid]']],
    ['servers.name', query['filter[name]']],
    ['servers.description', query['filter[description]']],
    ['servers.external_id', query['filter[external_id]']],
  ] as const;
  for (const [column, value] of partial) {
    // As the reference panel: a comma splits the value into alternatives; empty parts are ignored.
    const parts = (value ?? '').split(',').filter((p) => p !== '');
    if (parts.length) out.push(eb.or(parts.map((p) => likeExpr(column, `%${escapeLike(p)}%`))));
  }
  const text = query['filter[*]'];
  if (text) out.push(freeText(eb, text));
  return out;
}

// Four dotted 1–3 digit groups with an optional `:port`, or just `:port` (pterodactyl-facts §6).
const ADDRESS = /^(?:(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?|:(\d{1,5}))$/;

function freeText(eb: Eb, value: string): Expression<SqlBool> {
  const address = ADDRESS.exec(value);
  if (address) {
    const ip = address[1];
    const port = address[2] ?? address[3];
    let matching = eb.selectFrom('allocations').select('allocations.server_id').where('allocations.server_id', 'is not', null);
    if (ip) matching = matching.where('allocations.ip', '=', ip);
    // The port is digits only, so the prefix pattern needs no escaping.
    if (port) matching = matching.where(sql<SqlBool>`cast(allocations.port as text) like ${`${port}%`}`);
    return eb('servers.id', 'in', matching);
  }
  return eb.or([
    eb('servers.uuid', '=', value),
    likeExpr('servers.uuid', `${escapeLike(value)}%`),
    eb('servers.uuid_short', '=', value),
    eb('servers.external_id', '=', value),
    likeExpr('servers.name', `%${escapeLike(value)}%`),
  ]);
}

/** Escapes LIKE's wildcards so user text matches literally (`%`, `_` and the escape itself). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `column LIKE pattern ESCAPE '\'`; SQLite's LIKE is case-insensitive for ASCII. */
export function likeExpr(column: string, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/**
 * `meta.pagination` as the reference panel's serializer writes it (pterodactyl-facts A4): at least
 * one page, and previous/next links that keep the request's query string (`{}` when neither).
 */
export function paginationMeta(
  request: FastifyRequest,
  appUrl: string | undefined,
  page: { total: number; count: number; perPage: number; currentPage: number },
): Pagination {
  const totalPages = Math.max(1, Math.ceil(page.total / page.perPage));
  const links: Record<string, string> = {};
  const linkTo = (n: number) => {
    const q = request.url.indexOf('?');
    const path = q === -1 ? request.url : request.url.slice(0, q);
    const params = new URLSearchParams(q === -1 ? '' : request.url.slice(q + 1));
    params.set('page', String(n));
    const origin = appUrl ? appUrl.replace(/\/+$/, '') : `${request.protocol}://${request.host}`;
    return `${origin}${path}?${params.toString()}`;
  };
  if (page.currentPage > 1) links.previous = linkTo(page.currentPage - 1);
  if (page.currentPage < totalPages) links.next = linkTo(page.currentPage + 1);
  return {
    total: page.total,
    count: page.count,
    per_page: page.perPage,
    current_page: page.currentPage,
    total_pages: totalPages,
    links,
  };
}

/** A paginated list envelope (spec §2.1) for one page of `data` out of `total`. */
export function paginatedList<T>(
  request: FastifyRequest,
  appUrl: string | undefined,
  data: T[],
  total: number,
  query: { page: number; per_page: number },
) {
  return {
    object: 'list' as const,
    data,
    meta: { pagination: paginationMeta(request, appUrl, { total, count: data.length, perPage: query.per_page, currentPage: query.page }) },
  };
}
