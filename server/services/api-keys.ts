import { BlockList, isIP } from 'node:net';
import type { Db } from '../db';
import { apiKeys } from '../db/repos';
import { randomAlnum, sha256 } from '../lib/crypto';

/** Client API keys: `ptlc_` + 16-char identifier + 32-char secret, stored hashed. */
export async function createApiKey(
  db: Db,
  userId: number,
  description: string,
  now: Date,
  allowedIps: readonly string[] = [],
): Promise<{ token: string; identifier: string }> {
  const invalid = allowedIps.find((entry) => parseIpRange(entry) === null);
  if (invalid !== undefined) throw new Error(`"${invalid}" is not an IP address or CIDR range.`);
  const identifier = randomAlnum(16);
  const token = `ptlc_${identifier}${randomAlnum(32)}`;
  await apiKeys.insert(db, {
    user_id: userId,
    identifier,
    token_hash: sha256(token),
    description,
    allowed_ips: JSON.stringify(allowedIps),
    last_used_at: null,
    created_at: now.toISOString(),
  });
  return { token, identifier };
}

export function listApiKeys(db: Db, userId: number): Promise<apiKeys.KeySummary[]> {
  return apiKeys.listForUser(db, userId);
}

/** Deletes a key by identifier; with `userId`, only when it is that user's. */
export function deleteApiKey(db: Db, identifier: string, userId?: number): Promise<boolean> {
  return apiKeys.removeByIdentifier(db, identifier, userId);
}

/** Whether `entry` is an IP address or CIDR range a key can be limited to. */
export function isIpRange(entry: string): boolean {
  return parseIpRange(entry) !== null;
}

interface IpRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `10.0.0.1` or `10.0.0.0/8` (IPv6 too) as an address and prefix, or null when it is neither. */
function parseIpRange(entry: string): IpRange | null {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return null;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * Whether a key restricted to `allowed` may be used from `ip`. An empty list allows every address;
 * null (a list that could not be read) allows none. IPv4-mapped IPv6 clients count as IPv4.
 */
export function ipAllowed(allowed: readonly string[] | null, ip: string): boolean {
  if (allowed === null) return false;
  if (allowed.length === 0) return true;
  const list = new BlockList();
  for (const entry of allowed) {
    const range = parseIpRange(entry);
    if (range) list.addSubnet(range.address, range.prefix, range.family);
  }
  const bare = ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const version = isIP(bare);
  return version !== 0 && list.check(bare, version === 4 ? 'ipv4' : 'ipv6');
}
