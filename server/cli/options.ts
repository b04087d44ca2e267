import fs from 'node:fs';
import type { Db } from '../db';
import type { UserRow } from '../db/schema';
import type { ActivityEvent } from '../../src/contract';
import { logActivity, type ActivityInput } from '../services/activity';
import type { Clock } from '../lib/time';
import type { SecretBox } from '../lib/secret-box';
import type { PortRange } from '../services/allocations';
import type { NodeDaemons } from '../services/node-daemons';
import { findUserByEmail, MIN_PASSWORD_LENGTH } from '../services/users';

/** A mistake on the command line or a refused action: printed as one line, non-zero exit. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface CliDeps {
  db: Db;
  nodes: NodeDaemons;
  clock: Clock;
  /** The local node's port range (PANEL_ALLOCATION_PORTS), for new servers' primary ports. */
  ports?: PortRange;
  /** Seals secrets stored in the database (TOTP), with the data dir's key. */
  box: SecretBox;
  /** The panel's public URL (APP_URL, else http://localhost:PORT), for links the CLI prints. */
  publicUrl?: string;
  /** Standard input, read to the end (secrets never travel in argv); tests pass their own. */
  readStdin?: () => string;
  /** The root admin named with `--as`, recorded as the actor of the activity entries; none: the system. */
  actor?: UserRow;
  /** Whether the panel runs (its control socket answers); absent: it does, in this process (tests). */
  panelRunning?: () => Promise<boolean>;
}

export type Options = Record<string, string | boolean | undefined>;

export interface Command {
  options: Record<string, { type: 'string' | 'boolean' }>;
  run: (opts: Options, deps: CliDeps) => Promise<object>;
}

export function str(opts: Options, name: string): string | undefined {
  const value = opts[name];
  return typeof value === 'string' ? value : undefined;
}

export function required(opts: Options, name: string): string {
  const value = str(opts, name);
  if (value === undefined || value.trim() === '') throw new CliError(`Missing --${name}.`, 2);
  return value;
}

export function int(opts: Options, name: string): number | undefined {
  const value = str(opts, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} must be a whole number, got "${value}".`, 2);
  return Number(value);
}

export async function userByEmail(db: Db, email: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new CliError(`No user with email ${email}.`);
  return user;
}

export function checkPassword(password: string, source: string): string {
  if (password.length < MIN_PASSWORD_LENGTH) throw new CliError(`${source} must be at least ${MIN_PASSWORD_LENGTH} characters.`, 2);
  return password;
}

/** A password piped to standard input; one trailing line break (from `echo`) is not part of it. */
export function passwordFromStdin(deps: CliDeps): string {
  const text = (deps.readStdin ?? (() => fs.readFileSync(0, 'utf8')))();
  return checkPassword(text.replace(/\r?\n$/, ''), 'The password read from standard input');
}

export function userJson(user: UserRow) {
  return { id: user.id, uuid: user.uuid, username: user.username, email: user.email, admin: user.root_admin === 1, use_totp: user.use_totp === 1 };
}

/**
 * An activity entry for what a command did: the admin given with `--as` as its actor (else none,
 * which the log shows as the system), no address, and `via: "admin CLI"` among its properties so
 * the log says where it came from (the description stays empty: it would replace the sentence).
 */
export function logCliActivity(
  deps: CliDeps,
  event: ActivityEvent,
  properties: Record<string, unknown>,
  subjects: ActivityInput['subjects'],
): Promise<void> {
  return logActivity(deps.db, {
    event,
    ip: '',
    actorId: deps.actor?.id ?? null,
    properties: { ...properties, via: 'admin CLI' },
    subjects,
    timestamp: deps.clock.now(),
  });
}
