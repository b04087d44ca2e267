import type { Config } from './config';
import type { Db } from './db';
import type { NodeDaemons } from './services/node-daemons';
import type { Clock } from './lib/time';
import type { NodeHealthMonitor } from './services/node-health';

/** What every part of the panel is given: built once in main.ts (or the test harness), never global. */
export interface AppDeps {
  config: Config;
  db: Db;
  /** The daemon of each node (the one inside this panel, or a remote node's). */
  nodes: NodeDaemons;
  clock: Clock;
  /** What each remote node last answered to the panel's health check (`services/node-health.ts`). */
  nodeHealth?: Pick<NodeHealthMonitor, 'get' | 'refresh'>;
}
