import * as z from 'zod/mini';
import { item, list, optionalListMetaSchema } from './envelope';
import { nullableString, text } from './fields';

// An allocation (an IP and port) of a server.
export const allocationAttributes = z.object({
  id: z.int(),
  ip: z.string(),
  ip_alias: nullableString,
  port: z.int(),
  notes: nullableString,
  is_default: z.boolean(),
});
export const allocationSchema = item('allocation', allocationAttributes);
export type Allocation = z.infer<typeof allocationAttributes>;
export const allocationListSchema = list(allocationSchema, optionalListMetaSchema);

// Allocation notes: the key must be present; null clears the notes.
export const allocationNotesSchema = z.object({
  notes: z.pipe(
    z.nullable(text('The notes field must be present.').check(z.maxLength(256, 'The notes may not be greater than 256 characters.'))),
    z.transform((s) => s ?? ''),
  ),
});
