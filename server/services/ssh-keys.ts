import sshpk from 'sshpk';
import type { SshKey } from '../../src/contract';
import type { Db } from '../db';
import { sshKeys } from '../db/repos';
import type { SshKeyRow } from '../db/repos/ssh-keys';
import { validationError } from '../http/errors';
import { isoOffset } from '../lib/time';

/*
 * Account SSH keys as the reference panel keeps them: every public key sshpk reads (OpenSSH or PEM),
 * stored as PKCS#8 PEM under the SHA-256 fingerprint of its OpenSSH blob (unpadded base64, no prefix).
 */

const MIN_RSA_BITS = 2048;

const invalidKey = (detail: string) => validationError('public_key', detail);

/** The key as stored, or a 422 on `public_key` saying why it is refused. */
export function parsePublicKey(text: string): { fingerprint: string; pem: string } {
  // A private key parses too (sshpk derives its public half): refuse it rather than accept a leaked secret.
  if (isPrivateKey(text)) throw invalidKey('The public key provided is not valid.');
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(text, 'auto');
  } catch {
    throw invalidKey('The public key provided is not valid.');
  }
  if (key.type === 'dsa') throw invalidKey('DSA keys are not supported.');
  if (key.type === 'rsa' && key.size < MIN_RSA_BITS) throw invalidKey('RSA keys must be at least 2048 bytes in length.');
  const fingerprint = key
    .fingerprint('sha256')
    .toString('base64')
    .replace(/^SHA256:/, '');
  return { fingerprint, pem: key.toString('pkcs8') };
}

function isPrivateKey(text: string): boolean {
  try {
    sshpk.parsePrivateKey(text, 'auto');
    return true;
  } catch {
    return false;
  }
}

export function sshKeyResource(row: SshKeyRow): { object: 'ssh_key'; attributes: SshKey } {
  return {
    object: 'ssh_key',
    attributes: { name: row.name, fingerprint: row.fingerprint, public_key: row.public_key, created_at: isoOffset(row.created_at) },
  };
}

/** Adds a key to the account; a 422 when it is refused or the account already has it. */
export async function addSshKey(db: Db, userId: number, name: string, publicKey: string, now: Date): Promise<SshKeyRow> {
  const { fingerprint, pem } = parsePublicKey(publicKey);
  const row = await sshKeys.insert(db, { user_id: userId, name, fingerprint, public_key: pem, created_at: now.toISOString() });
  if (!row) throw invalidKey('The public key provided already exists on your account.');
  return row;
}
