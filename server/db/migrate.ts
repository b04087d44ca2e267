import { Migrator, type Migration, type MigrationProvider, type Kysely } from 'kysely';
import * as m001 from './migrations/001-initial';
import * as m002 from './migrations/002-node-daemons';
import * as m003 from './migrations/003-activity-retention';
import * as m004 from './migrations/004-egg-process-rules';
import * as m005 from './migrations/005-egg-install-scripts';
import * as m006 from './migrations/006-backups';
import * as m007 from './migrations/007-database-hosts';
import * as m008 from './migrations/008-user-ssh-keys';
import * as m009 from './migrations/009-password-resets';
import * as m010 from './migrations/010-database-connection-limits';
import * as m011 from './migrations/011-memory-limits-on';
import * as m012 from './migrations/012-schedules';
import * as m013 from './migrations/013-node-token-ids';
import * as m014 from './migrations/014-node-capacity';
import * as m015 from './migrations/015-server-transfers';
import * as m016 from './migrations/016-application-keys';
import * as m017 from './migrations/017-locations';
import * as m018 from './migrations/018-node-settings';
import * as m019 from './migrations/019-server-skip-scripts';
import * as m020 from './migrations/020-nests';
import * as m021 from './migrations/021-settings';
import * as m022 from './migrations/022-user-theme';
import type { Database } from './schema';

/** Numbered migrations, listed here so they ship inside the bundle-free TS sources. */
const MIGRATIONS: Record<string, Migration> = {
  '001-initial': m001,
  '002-node-daemons': m002,
  '003-activity-retention': m003,
  '004-egg-process-rules': m004,
  '005-egg-install-scripts': m005,
  '006-backups': m006,
  '007-database-hosts': m007,
  '008-user-ssh-keys': m008,
  '009-password-resets': m009,
  '010-database-connection-limits': m010,
  '011-memory-limits-on': m011,
  '012-schedules': m012,
  '013-node-token-ids': m013,
  '014-node-capacity': m014,
  '015-server-transfers': m015,
  '016-application-keys': m016,
  '017-locations': m017,
  '018-node-settings': m018,
  '019-server-skip-scripts': m019,
  '020-nests': m020,
  '021-settings': m021,
  '022-user-theme': m022,
};

export const MIGRATION_PROVIDER: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  // 010 came after 011 had shipped: a panel that ran 011 already still runs 010.
  const migrator = new Migrator({ db, provider: MIGRATION_PROVIDER, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
