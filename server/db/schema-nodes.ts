import type { Generated } from 'kysely';

/* The nodes and locations tables (migrations 001, 002, 013, 014, 017, 018), beside `schema.ts`'s: the machines servers run on. */

export interface NodesTable {
  id: Generated<number>;
  uuid: string;
  name: string;
  fqdn: string;
  sftp_port: number;
  maintenance_mode: number;
  /** Where the node's daemon listens (`https://node:8080`); null for the daemon inside this panel. */
  daemon_base_url: string | null;
  /**
   * The node's token, sealed (server/services/node-credentials.ts): what the panel signs this
   * node's tokens with (transfer URLs, websocket) and, as in Wings, the node's bearer token.
   */
  daemon_token: string;
  /** Wings' `token_id`: names the node in `Bearer <token_id>.<token>`. */
  daemon_token_id: string;
  /** MiB of memory and disk the node offers servers; 0: not said. */
  memory: Generated<number>;
  disk: Generated<number>;
  /** The ports and the address its allocations take; null: the panel's defaults. */
  port_start: number | null;
  port_end: number | null;
  allocation_ip: string | null;
  /** The location it is in (the reference requires one; null only until an operator picks one). */
  location_id: number | null;
  /** The reference's settings (018): whether deployment may pick it, and what its config.yml says. */
  public: Generated<number>;
  description: string | null;
  behind_proxy: Generated<number>;
  /** Percent over `memory`/`disk` that deployment may promise (the reference's formula). */
  memory_overallocate: Generated<number>;
  disk_overallocate: Generated<number>;
  /** MiB, the config's `api.upload_limit`. */
  upload_size: Generated<number>;
  daemon_base: Generated<string>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface LocationsTable {
  id: Generated<number>;
  /** A short code, unique (`eu-west`). */
  short: string;
  long: string | null;
  created_at: string;
  updated_at: string;
}
