import { LocalDaemon } from '../daemon/local';
import type { Db } from '../db';
import type { Clock } from '../lib/time';
import { serverConfiguration } from './server-configuration';

/**
 * The daemon inside this panel, wired to the panel the way a Wings node is: it asks the panel's
 * database for the configuration of a server it was not told about (one the admin CLI created in
 * another process, say).
 */
export function localDaemon(db: Db, dataDir: string, clock: Clock): LocalDaemon {
  return new LocalDaemon(dataDir, { configurationSource: (uuid) => serverConfiguration(db, uuid), now: () => clock.now() });
}
