import type { Db } from '../db';
import { apiKeys } from '../db/repos';
import { randomAlnum, sha256 } from '../lib/crypto';

/** Client API keys: `ptlc_` + 16-char identifier + 32-char secret, stored hashed. */
export async function createApiKey(db: Db, userId: number, description: string, now: Date): Promise<{ token: string; identifier: string }> {
  const identifier = randomAlnum(16);
  const token = `ptlc_${identifier}${randomAlnum(32)}`;
  await apiKeys.insert(db, {
    user_id: userId,
    identifier,
    token_hash: sha256(token),
    description,
    allowed_ips: '[]',
    last_used_at: null,
    created_at: now.toISOString(),
  });
  return { token, identifier };
}
