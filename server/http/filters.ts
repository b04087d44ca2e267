import * as z from 'zod/mini';
import { unknownFilters } from '../../src/contract';
import { badRequest } from './errors';

/** 400 `InvalidFilterQuery` for a `filter[...]` the endpoint does not offer, as the reference panel. */
export function rejectUnknownFilters(query: unknown, allowed: readonly string[]): void {
  // Endpoints without filters ignore stray query keys, as the reference panel does.
  if (allowed.length === 0 || typeof query !== 'object' || query === null) return;
  const unknown = unknownFilters(query, allowed);
  if (unknown.length === 0) return;
  const names = (keys: readonly string[]) => keys.map((k) => k.slice('filter['.length, -1)).join(', ');
  throw badRequest(
    `Requested filter(s) \`${names(unknown).slice(0, 200)}\` are not allowed. Allowed filter(s) are \`${names(allowed)}\`.`,
    'InvalidFilterQuery',
  );
}

/** The `filter[...]` keys a query schema declares; empty for queries that take no filters at all. */
export function filterKeysOf(schema: z.ZodMiniType): string[] {
  if (!(schema instanceof z.ZodMiniObject)) return [];
  return Object.keys(schema.shape).filter((key) => key.startsWith('filter['));
}
