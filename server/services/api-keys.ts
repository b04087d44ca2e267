import { BlockList, isIP } from 'node:net';
import type { Db } from '../db';
import { apiKeys } from '../db/repos';
import { randomAlnum, sha256 } from '../lib/crypto';
import type { ApiKeyType } from '../db/schema';
import { APPLICATION_RESOURCES, type ApplicationResource } from '../../src/contract/endpoint';

/** An application key's grants: resource → 1 read, 2 write, 3 both. */
export type ApplicationGrants = Partial<Record<ApplicationResource, 1 | 2 | 3>>;

export interface KeyKind {
  type: ApiKeyType;
  /** Application keys only. */
  grants?: ApplicationGrants;
}

const PREFIX: Record<ApiKeyType, string> = { account: 'ptlc_', application: 'ptla_' };

/**
 * An API key: `ptlc_` (client) or `ptla_` (application, a root admin's) + 16-char identifier +
 * 32-char secret, stored hashed.
 */
export async function createApiKey(
  db: Db,
  userId: number,
  description: string,
  now: Date,
  allowedIps: readonly string[] = [],
  kind: KeyKind = { type: 'account' },
): Promise<{ token: string; identifier: string }> {
  const invalid = allowedIps.find((entry) => parseIpRange(entry) === null);
  if (invalid !== undefined) throw new Error(`"${invalid}" is not an IP address or CIDR range.`);
  const identifier = randomAlnum(16);
  const token = `${PREFIX[kind.type]}${identifier}${randomAlnum(32)}`;
  await apiKeys.insert(db, {
    user_id: userId,
    identifier,
    token_hash: sha256(token),
    description,
    allowed_ips: JSON.stringify(allowedIps),
    last_used_at: null,
    created_at: now.toISOString(),
    key_type: kind.type,
    permissions: JSON.stringify(kind.type === 'application' ? (kind.grants ?? {}) : {}),
  });
  return { token, identifier };
}

export function listApiKeys(db: Db, userId: number, type: ApiKeyType = 'account'): Promise<apiKeys.KeySummary[]> {
  return apiKeys.listForUser(db, userId, type);
}

/** Deletes a key by identifier; with `owner`, only when it is that user's key of that kind. */
export function deleteApiKey(db: Db, identifier: string, owner?: { userId: number; type: ApiKeyType }): Promise<boolean> {
  return apiKeys.removeByIdentifier(db, identifier, owner);
}

/** Every resource read-write: an application key's grants when none are named. */
export const ALL_GRANTS: ApplicationGrants = Object.fromEntries(APPLICATION_RESOURCES.map((r) => [r, 3]));

/** Access words as grant bits: `r` read, `w` write, `rw` both. */
const ACCESS_BITS: Record<string, 1 | 2 | 3> = { r: 1, w: 2, rw: 3 };

/**
 * `{users: 'rw', servers: 'r'}` as grants: the one reading of an application key's permissions,
 * for the CLI's `--permissions` and the admin area's form alike; null when a resource or an access
 * is unknown. `none` (or '') grants nothing on that resource.
 */
export function grantsFromWords(words: Readonly<Record<string, string>>): ApplicationGrants | null {
  const grants: ApplicationGrants = {};
  for (const [resource, access] of Object.entries(words)) {
    if (!isApplicationResource(resource)) return null;
    if (access === 'none' || access === '') continue;
    const bits = ACCESS_BITS[access];
    if (bits === undefined) return null;
    grants[resource] = bits;
  }
  return grants;
}

/**
 * `users:rw,servers:r` as grants (`r` read, `w` write, `rw` both); null when a resource or an
 * access is unknown.
 */
export function parseGrants(text: string): ApplicationGrants | null {
  const pairs = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry) => {
      const [resource = '', access = ''] = entry.split(':');
      return [resource, access] as const;
    });
  // `none` is for the form; on the command line a resource is named only to grant it something.
  if (pairs.some(([, access]) => access === '' || access === 'none')) return null;
  return grantsFromWords(Object.fromEntries(pairs));
}

/** Grants as the CLI takes them: `{users: 'rw', servers: 'r'}`. */
export function grantWords(grants: ApplicationGrants): Record<string, string> {
  return Object.fromEntries(Object.entries(grants).map(([resource, bits]) => [resource, ['', 'r', 'w', 'rw'][bits] ?? '']));
}

const isApplicationResource = (name: string): name is ApplicationResource => (APPLICATION_RESOURCES as readonly string[]).includes(name);

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
