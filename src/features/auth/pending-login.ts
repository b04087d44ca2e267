/*
 * A login waiting for its second factor. Peers keep the confirmation token in history state, so a
 * reload or a new tab loses it; sessionStorage survives a reload of this tab and is dropped with
 * it. The token alone is not enough: the server binds it to this browser with an HttpOnly cookie
 * and expires it after five minutes, which `expiresAt` mirrors.
 */

const KEY = 'aerie.pending-login';
/** The checkpoint token's lifetime on the server. */
export const PENDING_LOGIN_TTL_MS = 5 * 60_000;

export interface PendingLogin {
  token: string;
  /** Epoch milliseconds after which the server no longer accepts the token. */
  expiresAt: number;
  /** Where to go after the checkpoint (already checked by `safeIntended` when used). */
  redirect: string | null;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage disabled: the checkpoint then needs a fresh sign-in after a reload
  }
}

export function savePendingLogin(token: string, redirect: string | null, now = Date.now()): PendingLogin {
  const pending: PendingLogin = { token, expiresAt: now + PENDING_LOGIN_TTL_MS, redirect };
  try {
    storage()?.setItem(KEY, JSON.stringify(pending));
  } catch {
    // quota or privacy mode: the in-memory navigation still works until a reload
  }
  return pending;
}

/** The pending login, or null when there is none, it is malformed or it has expired. */
export function readPendingLogin(now = Date.now()): PendingLogin | null {
  let raw: string | null | undefined;
  try {
    raw = storage()?.getItem(KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { token, expiresAt, redirect } = value as Record<string, unknown>;
  if (typeof token !== 'string' || token === '' || typeof expiresAt !== 'number') return null;
  if (expiresAt <= now) {
    clearPendingLogin();
    return null;
  }
  return { token, expiresAt, redirect: typeof redirect === 'string' ? redirect : null };
}

export function clearPendingLogin(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // nothing to clear
  }
}
