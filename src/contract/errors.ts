import * as z from 'zod/mini';

/**
 * The error document. `source.field` is the spec's; the reference panel puts the same
 * field in `meta.source_field`, so both are accepted and our server emits both.
 */
export const errorEntrySchema = z.object({
  code: z.string(),
  status: z.string(),
  detail: z.string(),
  source: z.optional(z.object({ field: z.string() })),
  meta: z.optional(
    z.looseObject({
      source_field: z.optional(z.string()),
      rule: z.optional(z.nullable(z.string())),
      // Aerie's own: the limit a "too large" refusal was measured against, in bytes (a real panel omits it).
      max_bytes: z.optional(z.number()),
    }),
  ),
});
export type ErrorEntry = z.infer<typeof errorEntrySchema>;

export const errorDocumentSchema = z.object({ errors: z.array(errorEntrySchema).check(z.minLength(1)) });
export type ErrorDocument = z.infer<typeof errorDocumentSchema>;

/** The request field an error entry is about, from either spelling. */
export function errorField(entry: ErrorEntry): string | undefined {
  return entry.source?.field ?? entry.meta?.source_field;
}
