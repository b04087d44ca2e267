import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { item } from './envelope';
import { timestamp } from './fields';

/*
 * Moving a server to another node through the application API: Aerie's own route (the reference
 * panel has it only in its admin pages, whose form fields the body keeps). A Pterodactyl panel
 * answers 404, so the admin area offers the move only where the state endpoint answers.
 */

const id = (field: string) =>
  z.pipe(
    z.union([z.int(), z.string().check(z.regex(/^\d{1,15}$/))], {
      error: (i) => (i.input === undefined ? `The ${field} field is required.` : `The ${field} must be an integer.`),
    }),
    z.transform(Number),
  );

export const applicationServerTransferSchema = z.object({
  node_id: id('node id'),
  /** The target's free allocation to be the primary one; absent: the lowest free port of its range. */
  allocation_id: z.optional(id('allocation id')),
  /** More free allocations of the target (the server keeps only these beside the primary). */
  allocation_additional: z.optional(
    z.nullable(z.array(id('allocation additional entry'), { error: 'The allocation additional must be an array.' }).check(z.maxLength(1000))),
  ),
});
export type ApplicationServerTransfer = z.infer<typeof applicationServerTransferSchema>;
export type ApplicationServerTransferInput = z.input<typeof applicationServerTransferSchema>;

export const TRANSFER_STATES = ['running', 'failed', 'done'] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

export const serverTransferAttributes = z.object({
  id: z.int(),
  state: z.enum(TRANSFER_STATES),
  /** Why it failed; null otherwise. */
  reason: z.nullable(z.string()),
  old_node: z.int(),
  new_node: z.int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type ServerTransfer = z.infer<typeof serverTransferAttributes>;
export const serverTransferSchema = item('server_transfer', serverTransferAttributes);
/** The latest transfer; null attributes when the server never moved (a 404 is a panel without the route). */
export const latestServerTransferSchema = z.object({ object: z.literal('server_transfer'), attributes: z.nullable(serverTransferAttributes) });

const path = `${ADMIN_ROUTE_PREFIX}/servers/:server/transfer`;
const row = { admin: true, resource: 'servers' } as const;

export const applicationServerTransferEndpoints = {
  /** 202 with the transfer, running; 409 while another runs; 400 to the node it is on. */
  start: endpoint({ method: 'POST', path, body: applicationServerTransferSchema, response: serverTransferSchema, ...row }),
  /** The server's latest transfer, or null attributes when it never had one. */
  latest: endpoint({ method: 'GET', path, response: latestServerTransferSchema, ...row }),
};
