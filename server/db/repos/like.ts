import { sql, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../index';
import type { Database } from '../schema';

/** Escapes LIKE's wildcards so user text matches literally (`%`, `_` and the escape itself). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `column LIKE pattern ESCAPE '\'`; SQLite's LIKE is case-insensitive for ASCII. */
export function likeExpr(column: string, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/** A page of an application API list: filters (parts of their columns), one sort column, the page. */
export interface FilteredPageQuery<C extends string> {
  /** Parts of these columns (the reference's filters match anywhere in the value). */
  filters: Partial<Record<C, string | undefined>>;
  sort: { column: string; descending: boolean };
  page: number;
  perPage: number;
}

/**
 * One page of a table's rows matching every filter, and how many match in all: the application
 * API's lists of users, servers and nodes.
 */
export async function filteredPage<T extends 'users' | 'servers' | 'nodes'>(
  db: Db,
  table: T,
  query: FilteredPageQuery<string>,
): Promise<{ rows: Selectable<Database[T]>[]; total: number }> {
  // Kysely cannot follow one query over a union of tables; the columns are the caller's own, named in code.
  let base = (db as unknown as Kysely<Record<string, Record<string, unknown>>>).selectFrom(table as string);
  for (const [column, value] of Object.entries(query.filters)) {
    if (value !== undefined && value !== '') base = base.where(likeExpr(`${table}.${column}`, `%${escapeLike(value)}%`));
  }
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy(query.sort.column, query.sort.descending ? 'desc' : 'asc')
    .orderBy('id')
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .execute();
  return { rows: rows as Selectable<Database[T]>[], total: Number(total.n) };
}
