import * as z from 'zod/mini';

/*
 * Query strings of §4.16 and §4.18 with the reference panel's parameter names. Keys such as
 * `filter[name]` arrive literally (no nested parsing), so they are spelled that way here.
 */

const isInt = (n: number) => Number.isInteger(n);

const pageNumber = z._default(
  z.coerce
    .number({ error: 'The page must be an integer.' })
    .check(z.refine(isInt, 'The page must be an integer.'), z.gte(1, 'The page must be at least 1.'), z.lte(1_000_000, 'The page is too large.')),
  1,
);

function perPage(defaultSize: number, max: number) {
  return z._default(
    z.coerce
      .number({ error: 'The per page must be an integer.' })
      .check(
        z.refine(isInt, 'The per page must be an integer.'),
        z.gte(1, 'The per page must be at least 1.'),
        z.lte(max, `The per page may not be greater than ${max}.`),
      ),
    defaultSize,
  );
}

const filterText = z.optional(z.string().check(z.maxLength(191, 'The filter may not be greater than 191 characters.')));

// §4.16, §8: default 50, maximum 100.
export const SERVER_LIST_FILTERS = ['filter[uuid]', 'filter[name]', 'filter[description]', 'filter[external_id]', 'filter[*]'] as const;
export const serverListQuerySchema = z.object({
  page: pageNumber,
  per_page: perPage(50, 100),
  type: z.optional(z.enum(['owner', 'admin', 'admin-all'])),
  'filter[uuid]': filterText,
  'filter[name]': filterText,
  'filter[description]': filterText,
  'filter[external_id]': filterText,
  'filter[*]': filterText,
});
export type ServerListQuery = z.infer<typeof serverListQuerySchema>;

// §4.18, §8: maximum 100; default 25 as the reference panel.
export const ACTIVITY_FILTERS = ['filter[event]'] as const;
export const activityQuerySchema = z.object({
  page: pageNumber,
  per_page: perPage(25, 100),
  'filter[event]': filterText,
  sort: z.optional(z.enum(['timestamp', '-timestamp'])),
  include: z
    .pipe(
      z.optional(z.string().check(z.maxLength(100))),
      z.transform((s) =>
        (s ?? '')
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    )
    .check(z.refine((parts) => parts.every((p) => p === 'actor'), 'Only actor may be included.')),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

/** `filter[...]` keys a query may carry that the endpoint does not know (400, as the reference panel). */
export function unknownFilters(query: Record<string, unknown>, allowed: readonly string[]): string[] {
  return Object.keys(query).filter((k) => k.startsWith('filter[') && !allowed.includes(k));
}

// files/list, files/contents, files/write, files/download (reference panel names)
export const directoryQuerySchema = z.object({
  directory: z.pipe(
    z.optional(z.string().check(z.maxLength(4096))),
    z.transform((s) => (s === undefined || s === '' ? '/' : s)),
  ),
});
export const fileQuerySchema = z.object({
  file: z.string({ error: 'The file field is required.' }).check(z.minLength(1, 'The file field is required.'), z.maxLength(4096)),
});
