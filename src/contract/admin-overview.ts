import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { activityLogSchema } from './activity';

/*
 * The admin area's landing page in one answer (Aerie's, not the reference's: its admin index is a
 * server-rendered page): the panel's version, each node's health and load, the latest admin
 * activity. Root admins' sessions only; an application key holds no resource that opens it.
 */

/** MiB in use by servers' limits against what the node offers (`total` 0: the node says nothing). */
const usage = z.object({ allocated: z.int(), total: z.int() });

export const overviewNodeSchema = z.object({
  id: z.int(),
  uuid: z.string(),
  name: z.string(),
  /** The node inside this panel (no daemon of its own to ask). */
  local: z.boolean(),
  /** null: not asked yet since the panel started. */
  reachable: z.nullable(z.boolean()),
  version: z.nullable(z.string()),
  /** Why it does not answer. */
  reason: z.nullable(z.string()),
  last_seen: z.nullable(z.string()),
  servers: z.int(),
  memory: usage,
  disk: usage,
});
export type OverviewNode = z.infer<typeof overviewNodeSchema>;

export const ADMIN_OVERVIEW_ACTIVITY = 10;

export const adminOverviewSchema = z.object({
  object: z.literal('admin_overview'),
  attributes: z.object({
    panel_version: z.string(),
    nodes: z.array(overviewNodeSchema),
    /** The latest `admin:` entries, newest first, each with its actor. */
    activity: z.array(activityLogSchema),
  }),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>['attributes'];

export const adminOverviewEndpoints = {
  overview: endpoint({ method: 'GET', path: `${ADMIN_ROUTE_PREFIX}/overview`, response: adminOverviewSchema, admin: true }),
};
