import type { AppDeps } from '../deps';
import type { Db } from '../db';
import { SlidingWindowThrottle } from './throttle';

/** Attempts (of any outcome) per client address per minute, login and checkpoint together. */
const IP_LIMIT = { max: 10, windowMs: 60_000 };
/**
 * The lock-out, as the reference panel's: failed logins and checkpoints per account and client
 * address, five a minute. Someone else failing from their own address never locks the owner out.
 */
const ACCOUNT_ADDRESS_LIMIT = { max: 5, windowMs: 60_000 };
/**
 * A loose backstop per account over all addresses, against guessing spread over many of them. One
 * address can fail at most about 55 times in its window (five a minute), so no single address can
 * reach it and lock an account (the root admin's) out alone.
 */
const ACCOUNT_LIMIT = { max: 100, windowMs: 10 * 60_000 };

/** The sign-in throttles of one panel, shared by the web sign-in and SFTP (`sftp-auth.ts`). */
export interface LoginThrottles {
  perIp: SlidingWindowThrottle;
  perAccountAddress: SlidingWindowThrottle;
  perAccount: SlidingWindowThrottle;
}

// One set per panel: each panel (and each test's) has its own database.
const byPanel = new WeakMap<Db, LoginThrottles>();

export function loginThrottles(deps: Pick<AppDeps, 'db' | 'clock'>): LoginThrottles {
  let throttles = byPanel.get(deps.db);
  if (!throttles) {
    throttles = {
      perIp: new SlidingWindowThrottle(deps.clock, IP_LIMIT),
      perAccountAddress: new SlidingWindowThrottle(deps.clock, ACCOUNT_ADDRESS_LIMIT),
      perAccount: new SlidingWindowThrottle(deps.clock, ACCOUNT_LIMIT),
    };
    byPanel.set(deps.db, throttles);
  }
  return throttles;
}
