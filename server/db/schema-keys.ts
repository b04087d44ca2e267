import type { Generated } from 'kysely';

/* The api_keys table (migrations 001, 016), beside `schema.ts`'s: client and application API keys. */

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  identifier: string;
  token_hash: string;
  description: string;
  allowed_ips: string;
  last_used_at: string | null;
  created_at: string;
  /** `account` (a `ptlc_` key, the client API) or `application` (a `ptla_` key, the application API). */
  key_type: Generated<ApiKeyType>;
  /** An application key's grants, JSON `{resource: 1 read | 2 write | 3 both}`. */
  permissions: Generated<string>;
}

export type ApiKeyType = 'account' | 'application';
