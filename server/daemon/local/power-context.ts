import type { ServerConfiguration } from '../capabilities';
import type { CgroupRoots } from './cgroup-roots';
import type { DaemonLog } from './events';
import type { HostUser } from './host-user';
import type { NetworkOptions } from './network';

/** What every server's power shares: the daemon's options, resolved. */
export interface PowerContext {
  /** The configuration held; `fresh` pulls it from the panel first (Wings syncs before every start). */
  configuration: (server: string, fresh?: boolean) => Promise<ServerConfiguration>;
  volumePath: (server: string) => string;
  bwrap: string | null;
  /** Each server's own network namespace (pasta), or the host's when the operator allows it. */
  network: NetworkOptions;
  log: DaemonLog;
  now: () => number;
  stopTimeoutMs: number;
  crashRestartAfterMs: number;
  pidsLimit: number;
  statsIntervalMs: number;
  /** Hard limits from cgroups where the machine allows them; the watchdog either way. */
  cgroups: boolean;
  /** Where servers' groups are made (this machine's, found once, unless a test says). */
  cgroupRoots: () => CgroupRoots;
  /** Start servers even where cgroups cannot hold them to their memory and process limits. */
  allowUnlimited: boolean;
  diskBytes?: (server: string) => Promise<number>;
  /** The host user the sandbox runs as, which its volume belongs to; null: the daemon's own. */
  hostUser: HostUser | null;
  /** Starts the server again through the power lock (after a crash). */
  restart: (server: string) => Promise<void>;
}
