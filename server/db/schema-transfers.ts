import type { Generated, Selectable } from 'kysely';

/* The server_transfers table (migration 015), beside `schema.ts`'s: a server moving between nodes. */

export interface ServerTransfersTable {
  id: Generated<number>;
  server_id: number;
  old_node: number;
  new_node: number;
  old_allocation: number;
  new_allocation: number;
  /** JSON arrays of allocation ids. */
  old_additional_allocations: string;
  new_additional_allocations: string;
  /** null while it runs; 0 failed, 1 done. */
  successful: number | null;
  archived: Generated<number>;
  /** Why it failed; null otherwise. */
  reason: string | null;
  created_at: string;
  updated_at: string;
}

export type ServerTransferRow = Selectable<ServerTransfersTable>;
