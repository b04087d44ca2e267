import * as z from 'zod/mini';

// zod/mini keeps the sign-in bundle small (classic zod alone is ~40 KB gzip); the API is functional.

/** `{ object, attributes }` for one resource. */
export function item<const K extends string, S extends z.ZodMiniType>(kind: K, attributes: S) {
  return z.object({ object: z.literal(kind), attributes });
}

export const paginationSchema = z.object({
  total: z.int(),
  count: z.int(),
  per_page: z.int(),
  current_page: z.int(),
  total_pages: z.int(),
  // `{}` when there are no links; PHP may encode an empty map as `[]`.
  links: z.union([z.record(z.string(), z.string()), z.array(z.never())]),
});
export type Pagination = z.infer<typeof paginationSchema>;

export const paginatedMetaSchema = z.object({ pagination: paginationSchema });
export const optionalListMetaSchema = z.optional(z.object({ pagination: z.optional(paginationSchema) }));

/** `{ object: 'list', data, meta }`; `meta` may carry `pagination` and endpoint-specific keys. */
export function list<S extends z.ZodMiniType, M extends z.ZodMiniType>(entry: S, meta: M) {
  return z.object({ object: z.literal('list'), data: z.array(entry), meta });
}

/** A reference panel's include that was withheld: `{object:'null_resource', attributes:null}`. */
export const nullResourceSchema = z.object({ object: z.literal('null_resource'), attributes: z.null() });
