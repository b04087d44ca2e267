import { isIP } from 'node:net';
import type { Config } from '../config';
import type { Db } from '../db';
import { randomAlnum } from '../lib/crypto';
import type { NodeDaemons } from './node-daemons';
import { DEMO_ACCOUNTS, isPanelEmpty, seedDemo, type DemoSummary } from './demo';
import { createUser, findUserByEmail, verifyPassword } from './users';
import { ensureDefaultEgg } from './servers';

/*
 * What a start does to an empty or demo panel, and where it listens. Demo accounts have published
 * passwords, so a panel holding them stays on loopback unless HOST says otherwise, and is not
 * seeded on an address other machines reach unless the operator insists. A real first start gets
 * a root admin whose random password is shown once, on the terminal that started it.
 */

export const FIRST_ADMIN = { email: 'admin@example.com', username: 'admin' } as const;

/** How an operator adds a user and a server: said by a fresh panel's start-up and by empty CLI lists. */
export const ADD_USER_HINT = "npm run -s panel -- user:create --email you@example.com --username you --password 'at least 8 characters'";
export const ADD_SERVER_HINT = 'npm run -s panel -- server:create --owner you@example.com --name "My server"';

export interface FirstStart {
  /** The address to listen on. */
  host: string;
  /** Set when demo data was seeded by this start. */
  demo?: DemoSummary;
  /** Set when this start created the root admin: print it once, never log it. */
  admin?: { email: string; username: string; password: string };
}

export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || /^::ffff:127\./i.test(bare);
}

/** True while the demo admin exists with its published password. */
async function holdsDemoAccounts(db: Db): Promise<boolean> {
  const admin = await findUserByEmail(db, DEMO_ACCOUNTS.admin.email);
  return admin !== undefined && (await verifyPassword(admin.password_hash, DEMO_ACCOUNTS.admin.password));
}

/** Where a panel that is not seeding the demo now listens: HOST, else loopback while the demo accounts exist. */
export async function listenHost(db: Db, config: Pick<Config, 'host'>): Promise<string> {
  return config.host ?? ((await holdsDemoAccounts(db)) ? '127.0.0.1' : '0.0.0.0');
}

export async function firstStart(db: Db, nodes: NodeDaemons, config: Config, now: Date): Promise<FirstStart> {
  const empty = await isPanelEmpty(db);
  const seeding = config.seedDemo && empty;
  const host = seeding ? (config.host ?? '127.0.0.1') : await listenHost(db, config);
  if (seeding && !isLoopback(host) && !config.seedDemoForce) {
    throw new Error(
      `Refusing to seed demo accounts, whose passwords are published, on HOST=${host}, an address other machines can reach. ` +
        'Unset HOST (the demo then listens on 127.0.0.1), set PANEL_SEED_DEMO=false for a real panel, ' +
        'or set PANEL_SEED_DEMO_FORCE=true to seed them there anyway.',
    );
  }
  if (seeding) return { host, demo: await seedDemo(db, nodes, now, config.allocationPorts) };
  if (!empty) return { host };
  // The built-in eggs, so the admin area can create a first server without the CLI having made one.
  await ensureDefaultEgg(db);
  const password = randomAlnum(24);
  await createUser(db, { ...FIRST_ADMIN, password, admin: true, firstName: 'Root', lastName: 'Admin' }, now);
  return { host, admin: { ...FIRST_ADMIN, password } };
}
