import type { ConnectionCaps } from '../../config';
import type { DaemonEvent } from '../capabilities';
import type { DaemonLog } from './events';
import type { LocalFiles } from './files';

/* What the node's SFTP server is given, and what the panel answers about a sign-in. */

/** Who signed in: the panel's answer (`stamp`: opaque to the node, handed back on each recheck). */
export interface SftpGrant {
  server: string;
  user: string;
  permissions: string[];
  stamp: string;
}

export type SftpCredentials = { username: string; ip: string } & (
  | { method: 'password'; password: string }
  /** `checkOnly`: the client asks whether the key would do, before it signs anything (any answer but null is yes). */
  /** `publicKey`: the key in `authorized_keys` form, as Wings hands it to the panel. */
  | { method: 'publickey'; fingerprint: string; publicKey?: string; checkOnly: boolean }
);

export interface SftpOptions {
  files: LocalFiles;
  /** The panel's verdict on a sign-in; null refuses it. */
  authenticate: (credentials: SftpCredentials) => Promise<SftpGrant | null>;
  /** The panel's verdict on an open session: its permissions now, or null to close it. */
  recheck: (grant: SftpGrant) => Promise<string[] | null>;
  report: (event: DaemonEvent) => void;
  log: DaemonLog;
  hostKey: string;
  /** How often every open session is rechecked (a password change, a revocation the node was not told of). */
  recheckMs?: number;
  /** How long a session's activity is gathered into one entry. */
  batchMs?: number;
  /** How long a connection may take to sign in, from its first byte on (default a minute). */
  signInMs?: number;
  /** Connections held at once, signed in or not, in all and per address (default PANEL_SFTP_MAX_CONNECTIONS's). */
  connections?: ConnectionCaps;
}
