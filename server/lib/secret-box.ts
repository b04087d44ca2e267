import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/*
 * Secrets the panel must read back (TOTP seeds) are stored sealed with AES-256-GCM under a key
 * that lives in a file of the data dir, not in the database: a copy of the database alone (a
 * backup, a leaked file) does not hand out anyone's second factor.
 */

const PREFIX = 'gcm1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_FILE = 'secret.key';

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The secret key must be 32 bytes.');
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The plain text, or null when the value is not sealed or was sealed under another key or altered. */
  open(sealed: string): string | null {
    if (!isSealed(sealed)) return null;
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/**
 * The data dir's secret box. Its key file is created on first use, readable by the panel's user
 * only. It is written aside and linked into place, so two processes starting at once (the panel
 * and the CLI) agree on one complete key and never read a half-written one.
 */
export function loadSecretBox(dataDir: string): SecretBox {
  const file = path.join(dataDir, SECRET_KEY_FILE);
  if (!fs.existsSync(file)) {
    const aside = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    fs.writeFileSync(aside, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(aside, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(aside, { force: true });
    }
  }
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} does not hold a 256-bit hex key.`);
  return new SecretBox(Buffer.from(hex, 'hex'));
}
