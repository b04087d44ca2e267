import { errors, jwtVerify } from 'jose';
import * as z from 'zod/mini';

/*
 * The tokens a node daemon accepts, as Wings defines them: HS256 JWTs signed by the panel with the
 * node's own key. A token proves the panel allowed one user one thing on one server for a short
 * while; the daemon checks the signature, the expiry and, for transfers, that it is used once.
 */

/**
 * What a token is for: Wings' `scope` claim (space-separated; Pelican and Wings 1.12+ refuse a
 * token without it, Wings 1.11 ignores it). A download token carries every claim an upload token
 * needs, so the scope is what keeps a link to read one file from writing, or opening the console.
 */
export const TOKEN_SCOPES = ['websocket', 'file-upload', 'file-download', 'backup-download', 'transfer'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A `scope` claim that grants `scope` among its space-separated values. */
const grants = (scope: TokenScope) => z.string().check(z.refine((claim) => claim.split(' ').includes(scope)));

// `jti` names the user and server (what a revocation names), `iat` says whether it came before one.
const base = (scope: TokenScope) => ({
  scope: grants(scope),
  server_uuid: z.uuid(),
  unique_id: z.string().check(z.minLength(1)),
  jti: z.string(),
  iat: z.number(),
});

/** `/download/file?token=`: one file of one server. */
export const fileTokenSchema = z.object({ ...base('file-download'), file_path: z.string(), user_uuid: z.optional(z.string()) });
export type FileToken = z.infer<typeof fileTokenSchema>;

/** `/upload/file?token=&directory=`: uploads into one server on behalf of a user. */
export const uploadTokenSchema = z.object({ ...base('file-upload'), user_uuid: z.string() });
export type UploadToken = z.infer<typeof uploadTokenSchema>;

/** `/download/backup?token=`: one backup archive of one server (Wings' claims). */
export const backupTokenSchema = z.object({ ...base('backup-download'), backup_uuid: z.uuid(), user_uuid: z.optional(z.string()) });
export type BackupToken = z.infer<typeof backupTokenSchema>;

/** The console websocket's `auth` event: the user's permissions on the server. */
export const socketTokenSchema = z.object({
  ...base('websocket'),
  user_uuid: z.string(),
  permissions: z.array(z.string()),
  exp: z.number(),
});
export type SocketToken = z.infer<typeof socketTokenSchema>;

/** The HMAC key of a node's tokens. */
export function tokenKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** The payload of a valid, unexpired token of this shape; null for anything else (no detail leaks). */
export async function verifyToken<S extends z.ZodMiniType>(token: string, secret: string, schema: S, now: Date): Promise<z.output<S> | null> {
  const checked = await checkToken(token, secret, schema, now);
  return checked.ok ? checked.payload : null;
}

/**
 * As `verifyToken`, telling an expired token (genuine, past its `exp`) from any other refusal:
 * the console socket asks for a fresh token then, as Wings does.
 */
export async function checkToken<S extends z.ZodMiniType>(
  token: string,
  secret: string,
  schema: S,
  now: Date,
): Promise<{ ok: true; payload: z.output<S> } | { ok: false; expired: boolean }> {
  if (!token || token.length > 8192) return { ok: false, expired: false };
  try {
    const { payload } = await jwtVerify(token, tokenKey(secret), { algorithms: ['HS256'], currentDate: now, requiredClaims: ['exp'] });
    const parsed = schema.safeParse(payload);
    return parsed.success ? { ok: true, payload: parsed.data } : { ok: false, expired: false };
  } catch (error) {
    // jose checks the signature before the claims: an expired token is a genuine one.
    return { ok: false, expired: error instanceof errors.JWTExpired };
  }
}

/**
 * Remembers the `unique_id` of each transfer token for an hour (longer than any token lives), so
 * a token works once: a download link that leaked from a browser's history is already spent.
 */
export class SingleUseTokens {
  private readonly seen = new Map<string, number>();

  constructor(private readonly ttlMs = 60 * 60_000) {}

  /** True the first time an id is seen; false every time after. */
  claim(uniqueId: string, now: Date): boolean {
    const at = now.getTime();
    if (this.seen.size > 10_000) for (const [id, expires] of this.seen) if (expires <= at) this.seen.delete(id);
    const expires = this.seen.get(uniqueId);
    if (expires !== undefined && expires > at) return false;
    this.seen.set(uniqueId, at + this.ttlMs);
    return true;
  }
}
