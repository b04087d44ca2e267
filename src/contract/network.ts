import * as z from 'zod/mini';
import { endpoint, SERVER_ROUTE_PREFIX } from './endpoint';
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

const allocations = `${SERVER_ROUTE_PREFIX}/network/allocations`;

export const networkEndpoints = {
  list: endpoint({ method: 'GET', path: allocations, response: allocationListSchema, permission: 'allocation.read' }),
  /** The next free port of the node's range, up to the server's allocation limit. */
  create: endpoint({ method: 'POST', path: allocations, response: allocationSchema, permission: 'allocation.create' }),
  notes: endpoint({
    method: 'POST',
    path: `${allocations}/:allocation`,
    body: allocationNotesSchema,
    response: allocationSchema,
    permission: 'allocation.update',
  }),
  primary: endpoint({ method: 'POST', path: `${allocations}/:allocation/primary`, response: allocationSchema, permission: 'allocation.update' }),
  /** Never the primary allocation. */
  delete: endpoint({ method: 'DELETE', path: `${allocations}/:allocation`, response: 'empty', permission: 'allocation.delete' }),
};
