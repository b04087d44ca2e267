import * as z from 'zod/mini';
import { activityLogListSchema } from './activity';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { filterText, pageNumber, perPage } from './fields';

/*
 * The admin activity log (Aerie's, not the reference's: its admin area has no such page): every
 * `admin:` entry, newest (or oldest) first, a page at a time, each with its actor. Root admins' sessions only,
 * as the overview; an application key holds no resource that opens it.
 */

export const adminActivityQuerySchema = z.object({
  page: pageNumber,
  per_page: perPage(25, 100),
  /** Part of the event name (`node.` for every node change), as the client area's activity filter. */
  'filter[event]': filterText,
  /** Newest first unless `timestamp`, as the client area's logs. */
  sort: z.optional(z.enum(['timestamp', '-timestamp'])),
});
export type AdminActivityQuery = z.infer<typeof adminActivityQuerySchema>;

export const adminActivityEndpoints = {
  list: endpoint({
    method: 'GET',
    path: `${ADMIN_ROUTE_PREFIX}/activity`,
    query: adminActivityQuerySchema,
    response: activityLogListSchema,
    admin: true,
  }),
};
