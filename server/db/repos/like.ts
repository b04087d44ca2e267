import { sql, type Expression, type SqlBool } from 'kysely';

/** Escapes LIKE's wildcards so user text matches literally (`%`, `_` and the escape itself). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `column LIKE pattern ESCAPE '\'`; SQLite's LIKE is case-insensitive for ASCII. */
export function likeExpr(column: string, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
}
