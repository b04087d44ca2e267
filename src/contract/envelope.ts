import { z } from 'zod';

/** `{ object, attributes }` for one resource (spec §2.1). */
export function item<const K extends string, S extends z.ZodType>(kind: K, attributes: S) {
  return z.object({ object: z.literal(kind), attributes });
}

export const paginationSchema = z.object({
  total: z.number().int(),
  count: z.number().int(),
  per_page: z.number().int(),
  current_page: z.number().int(),
  total_pages: z.number().int(),
  links: z.record(z.string(), z.string()).or(z.array(z.never())),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** `{ object: 'list', data, meta? }`; `meta` may carry `pagination` and endpoint-specific keys. */
export function list<S extends z.ZodType, M extends z.ZodType = z.ZodOptional<z.ZodObject<{ pagination: z.ZodOptional<typeof paginationSchema> }>>>(
  entry: S,
  meta?: M,
) {
  return z.object({
    object: z.literal('list'),
    data: z.array(entry),
    meta: (meta ?? z.object({ pagination: paginationSchema.optional() }).optional()) as M,
  });
}

export const paginatedMetaSchema = z.object({ pagination: paginationSchema });

/** A reference panel's include that was withheld: `{object:'null_resource', attributes:null}`. */
export const nullResourceSchema = z.object({ object: z.literal('null_resource'), attributes: z.null() });
