import type { Config } from './config';
import type { Db } from './db';
import type { NodeDaemon } from './daemon/capabilities';
import type { Clock } from './lib/time';

/** What every part of the panel is given: built once in main.ts (or the test harness), never global. */
export interface AppDeps {
  config: Config;
  db: Db;
  daemon: NodeDaemon;
  clock: Clock;
}
