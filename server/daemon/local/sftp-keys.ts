import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import ssh2, { type AuthContext } from 'ssh2';

/* The SFTP server's host key and the public-key sign-in's checks (the panel holds the keys' fingerprints). */

// ssh2 is CommonJS: its named exports are read off the default one under Node's ESM.
const { utils } = ssh2;

/**
 * A new ed25519 key pair that ssh2 can read back: about one in 250 it makes cannot be parsed
 * (then no server could start with it, or client sign in), so such a one is made again.
 */
export function newKeyPair(): { private: string; public: string } {
  for (;;) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    if (!(utils.parseKey(pair.private) instanceof Error)) return pair;
  }
}

/** The host key kept in the data dir (0600), made on first start: the same key across restarts. */
export async function loadHostKey(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'sftp_host_key');
  const kept = await fs.readFile(file, 'utf8').catch(() => null);
  if (kept !== null && !(utils.parseKey(kept) instanceof Error)) return kept;
  // None yet, or one ssh2 cannot read (never served, so no client knows it): a new one.
  if (kept !== null) await fs.rm(file, { force: true });
  await fs.writeFile(file, newKeyPair().private, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
  return fs.readFile(file, 'utf8');
}

/** SHA-256 fingerprint of a public key blob as the panel stores it (unpadded base64). */
export const keyFingerprint = (blob: Buffer): string => createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');

/** The first string of an SSH public key blob: its key type. */
function blobType(blob: Buffer): string {
  const length = blob.length >= 4 ? blob.readUInt32BE(0) : 0;
  return blob.subarray(4, 4 + length).toString('latin1');
}

export function verifySignature(ctx: AuthContext & { method: 'publickey' }): boolean {
  if (!ctx.signature || !ctx.blob) return false;
  const key = utils.parseKey(`${blobType(ctx.key.data)} ${ctx.key.data.toString('base64')}`);
  if (key instanceof Error) return false;
  const parsed = Array.isArray(key) ? key[0] : key;
  return parsed?.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true;
}
