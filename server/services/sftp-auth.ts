import type { SftpCredentials, SftpGrant } from '../daemon/local';
import type { AppDeps } from '../deps';
import { sshKeys, users } from '../db/repos';
import type { UserRow } from '../db/schema';
import { HttpError } from '../http/errors';
import { sha256 } from '../lib/crypto';
import { assertServerUsable, serverAccess } from './access';
import { logActivity } from './activity';
import { accountKey, checkPassword } from './login';
import { loginThrottles } from './login-throttle';
import { ipBucketKey } from '../lib/ip-bucket';
import { findUserByLogin } from './users';
import { SlidingWindowThrottle } from './throttle';
import { keyFingerprint } from '../daemon/local/sftp-keys';

/*
 * The panel's half of SFTP sign-in (the reference's `POST /api/remote/sftp/auth`): username
 * `<panel username>.<server identifier>`, the account's password (2FA or not, as the reference)
 * or one of its SSH keys; the user must own the server, be an admin or hold `file.sftp`, and the
 * server must be usable (not suspended, installing, restoring or moving). Failures count against
 * the web sign-in's own throttle buckets, and a full bucket refuses before anything is checked.
 * Every refusal looks the same to the client.
 */

const USERNAME = /^(.+)\.([a-z0-9]{8})$/i;

/** What ties a session to its credential: a password change or a removed key ends the session. */
const stampOf = (user: UserRow, credentials: SftpCredentials): string =>
  credentials.method === 'password' ? `p:${sha256(user.password_hash)}` : `k:${credentials.fingerprint}`;

async function hasKey(deps: AppDeps, user: UserRow, fingerprint: string): Promise<boolean> {
  return (await sshKeys.listForUser(deps.db, user.id)).some((key) => key.fingerprint === fingerprint);
}

/**
 * The user's permissions on the server for SFTP: null when they may not use it, 'conflict' when
 * the server's state forbids it now, or when it is not on `nodeId` (a node asks only for its own).
 */
async function sftpPermissions(
  deps: AppDeps,
  user: UserRow,
  server: string,
  nodeId?: number,
): Promise<{ uuid: string; permissions: string[] } | null | 'conflict'> {
  try {
    const access = await serverAccess(deps.db, { user, sessionId: null, csrfToken: null, apiKeyId: null }, server);
    if (nodeId !== undefined && access.server.node_id !== nodeId) return null;
    if (!access.can('file.sftp')) return null;
    assertServerUsable(access.server, access.node.maintenance_mode === 1);
    return { uuid: access.server.uuid, permissions: access.subuserPermissions ?? ['*'] };
  } catch (error) {
    if (error instanceof HttpError) return error.status === 409 ? 'conflict' : null;
    throw error;
  }
}

/** How a sign-in ended: a grant, refused (null), or the reference's other answers to a node. */
type SignIn = SftpGrant | null | 'conflict' | 'throttled' | 'no-server';

/** One remote node's failures per server (the reference's `lower(server)|<node ip>` key). */
const NODE_SERVER_LIMIT = { max: 5, windowMs: 60_000 };
const nodeThrottles = new WeakMap<AppDeps['db'], SlidingWindowThrottle>();

export function sftpAuthenticator(deps: AppDeps) {
  const { perIp, perAccountAddress, perAccount } = loginThrottles(deps);

  /** `node`: a remote node asks (the server must be its own, and its state is told apart). */
  async function signIn(credentials: SftpCredentials, node?: { id: number }): Promise<SignIn> {
    const match = USERNAME.exec(credentials.username);
    if (node && !match) return 'no-server';
    const login = match?.[1] ?? credentials.username;
    const found = match ? await findUserByLogin(deps.db, login) : undefined;
    const address = `ip:${ipBucketKey(credentials.ip)}`;
    const account = accountKey(found, login);
    const here = `${account}|${ipBucketKey(credentials.ip)}`;
    if (perIp.retryAfterMs(address) > 0 || perAccountAddress.retryAfterMs(here) > 0 || perAccount.retryAfterMs(account) > 0) {
      return node ? 'throttled' : null;
    }
    const fail = async (): Promise<null> => {
      perIp.hit(address);
      perAccountAddress.hit(here);
      perAccount.hit(account);
      await logActivity(deps.db, {
        event: 'auth:sftp.fail',
        ip: credentials.ip,
        actorId: null,
        properties: { ip: credentials.ip, username: credentials.username },
        subjects: found ? [{ type: 'user', id: found.id }] : [],
        timestamp: deps.clock.now(),
      });
      return null;
    };

    if (credentials.method === 'password') {
      // Always one password check, unknown account or not (see checkPassword).
      if (!(await checkPassword(found, credentials.password)) || !found) return fail();
    } else if (!found || !(await hasKey(deps, found, credentials.fingerprint))) {
      // A client offers each of its keys in turn: only a signed attempt is a failure.
      return credentials.checkOnly ? null : fail();
    } else if (credentials.checkOnly) {
      // The key is the account's: the signed attempt decides the rest. Answering from the server's
      // access here would tell anyone holding the (public) key which servers the account reaches.
      return { server: '', user: found.uuid, permissions: [], stamp: '' };
    }
    const granted = await sftpPermissions(deps, found, match?.[2] ?? '', node?.id);
    if (granted === 'conflict' && node) return 'conflict';
    if (!granted || granted === 'conflict') return fail();
    perAccountAddress.clear(here);
    return { server: granted.uuid, user: found.uuid, permissions: granted.permissions, stamp: stampOf(found, credentials) };
  }

  const authenticate = async (credentials: SftpCredentials): Promise<SftpGrant | null> => {
    const result = await signIn(credentials);
    return typeof result === 'string' ? null : result;
  };

  /** An open session's permissions now; null closes it (access gone, server unusable, password changed, key removed). */
  async function recheck(grant: SftpGrant): Promise<string[] | null> {
    const user = await users.findByUuid(deps.db, grant.user);
    if (!user) return null;
    if (grant.stamp.startsWith('p:') && grant.stamp !== `p:${sha256(user.password_hash)}`) return null;
    if (grant.stamp.startsWith('k:') && !(await hasKey(deps, user, grant.stamp.slice(2)))) return null;
    const now = await sftpPermissions(deps, user, grant.server);
    return now === null || now === 'conflict' ? null : now.permissions;
  }

  return { authenticate, recheck, signIn };
}

/**
 * The reference's `POST /api/remote/sftp/auth` (peers.md §4.7) over the same sign-in: a remote
 * node hands the username, the password or the public key (`authorized_keys` form) and the
 * client's address; the server must be on that node. Throttled per server and node as well.
 */
export function nodeSftpAuthenticator(deps: AppDeps) {
  const { signIn } = sftpAuthenticator(deps);
  let perNodeServer = nodeThrottles.get(deps.db);
  if (!perNodeServer) nodeThrottles.set(deps.db, (perNodeServer = new SlidingWindowThrottle(deps.clock, NODE_SERVER_LIMIT)));
  const throttle = perNodeServer;
  return async (request: {
    node: { id: number };
    nodeIp: string;
    type: 'password' | 'public_key';
    username: string;
    password: string;
    ip: string;
  }): Promise<SignIn> => {
    const server = USERNAME.exec(request.username)?.[2];
    if (!server) return 'no-server';
    const key = `${server.toLowerCase()}|${request.nodeIp}`;
    if (throttle.retryAfterMs(key) > 0) return 'throttled';
    let credentials: SftpCredentials;
    if (request.type === 'password') {
      credentials = { method: 'password', username: request.username, password: request.password, ip: request.ip };
    } else {
      const fingerprint = authorizedKeyFingerprint(request.password);
      if (!fingerprint) return null;
      credentials = { method: 'publickey', username: request.username, fingerprint, checkOnly: false, ip: request.ip };
    }
    const result = await signIn(credentials, request.node);
    if (result === null) throttle.hit(key);
    return result;
  };
}

/** The fingerprint the panel stores for a key given as an `authorized_keys` line (`type base64 [comment]`). */
function authorizedKeyFingerprint(line: string): string | null {
  const blob = line.trim().split(/\s+/)[1];
  if (!blob || !/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) return null;
  return keyFingerprint(Buffer.from(blob, 'base64'));
}
