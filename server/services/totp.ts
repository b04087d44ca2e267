import { Secret, TOTP } from 'otpauth';
import type { Db } from '../db';
import { users } from '../db/repos';
import { safeEqual } from '../lib/crypto';
import { isSealed, type SecretBox } from '../lib/secret-box';
import { verifyPassword } from './users';

const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps either side of now that are accepted: enough for clock drift, far short of the reference panel's ±4. */
const WINDOW_STEPS = 1;

/** The TOTP time step (RFC 6238 counter) at `at`. */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / PERIOD_SECONDS);
}

function totpFor(secret: string): TOTP | null {
  try {
    return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS });
  } catch {
    return null;
  }
}

/** The code an authenticator shows at `at` (tests and the CLI use it). */
export function totpCode(secret: string, at: Date): string {
  const totp = totpFor(secret);
  if (!totp) throw new Error('Invalid TOTP secret.');
  return totp.generate({ timestamp: at.getTime() });
}

/**
 * The step `code` belongs to, within ±WINDOW_STEPS of `at` and strictly after `lastStep`, or null.
 * Refusing steps at or before the last accepted one is what makes a code single-use
 *: once step n is used, no code from step n or earlier passes again.
 */
export function matchTotpStep(secret: string, code: string, at: Date, lastStep: number | null): number | null {
  const totp = totpFor(secret);
  if (!totp) return null;
  const current = totpStep(at);
  let accepted: number | null = null;
  for (let step = current - WINDOW_STEPS; step <= current + WINDOW_STEPS; step += 1) {
    const expected = totp.generate({ timestamp: step * PERIOD_SECONDS * 1000 });
    if (safeEqual(expected, code) && (lastStep === null || step > lastStep)) accepted = step;
  }
  return accepted;
}

/**
 * Records `step` as used. Conditional on it being newer than the stored one, so two requests
 * racing with the same code cannot both succeed.
 */
export function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  return users.claimTotpStep(db, userId, step);
}

/** The user's TOTP secret in the clear, or null when there is none or it cannot be opened with this key. */
export function openTotpSecret(box: SecretBox, stored: string | null): string | null {
  return stored === null ? null : box.open(stored);
}

/** Seals TOTP secrets stored in the clear by earlier versions; run at start, before anyone signs in. Returns how many. */
export async function sealPlaintextTotpSecrets(db: Db, box: SecretBox): Promise<number> {
  const plain = await users.totpSecretsWhere(db, isSealed);
  for (const row of plain) await users.replaceTotpSecret(db, row.id, row.totp_secret, box.seal(row.totp_secret));
  return plain.length;
}

/** Checks a recovery token against the user's stored hashes and deletes the match (single use). */
export async function consumeRecoveryToken(db: Db, userId: number, token: string): Promise<boolean> {
  const rows = await users.recoveryTokens(db, userId);
  const typed = token.trim();
  // Every hash is checked, so the time taken does not hint at which token (if one) matched.
  const results = await Promise.all(rows.map(async (row) => ((await verifyPassword(row.token_hash, typed)) ? row.id : null)));
  const matchId = results.find((id): id is number => id !== null);
  if (matchId === undefined) return false;
  // False when a concurrent request used it first.
  return users.deleteRecoveryToken(db, matchId);
}
