import { z } from 'zod';

/**
 * The error document (spec §7). `source.field` is the spec's; the reference panel puts the same
 * field in `meta.source_field`, so both are accepted and our server emits both.
 */
export const errorEntrySchema = z.object({
  code: z.string(),
  status: z.string(),
  detail: z.string(),
  source: z.object({ field: z.string() }).optional(),
  meta: z.object({ source_field: z.string().optional(), rule: z.string().nullable().optional() }).passthrough().optional(),
});
export type ErrorEntry = z.infer<typeof errorEntrySchema>;

export const errorDocumentSchema = z.object({ errors: z.array(errorEntrySchema).min(1) });
export type ErrorDocument = z.infer<typeof errorDocumentSchema>;

/** The request field an error entry is about, from either spelling. */
export function errorField(entry: ErrorEntry): string | undefined {
  return entry.source?.field ?? entry.meta?.source_field;
}
