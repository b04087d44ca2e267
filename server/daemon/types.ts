/**
 * The node daemon: everything that touches a server's volume, console or archives goes through
 * this interface, so a remote (Wings-compatible) daemon can replace the local one without
 * touching routes. The file-manager issue fills in the file operations.
 */
export interface Daemon {
  /** Creates the (empty) volume of a new server. Idempotent. */
  createVolume(serverUuid: string): Promise<void>;
}
