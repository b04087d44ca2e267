/*
 * Token revocation with Wings' semantics, for the console socket's tokens and (beyond Wings) the
 * signed download and upload links. The panel revokes by token id (`jti`, which
 * the panel derives from the user and the server, so it names every token of that pair); a token
 * carrying a revoked id is refused when it was issued before the revocation, so the token fetched
 * right after a change of rights works. Tokens issued before the daemon started are refused too:
 * revocations are held in memory only, so one made before a restart would otherwise be forgotten.
 */

export class TokenDenylist {
  private readonly bootedAt: number;
  /** server → jti → when it was revoked (epoch ms). */
  private readonly denied = new Map<string, Map<string, number>>();
  /** Told of every change, so open connections can look at their tokens again (or close, when the server went). */
  private readonly watchers = new Set<(server: string, change: 'denied' | 'forgotten') => void>();

  constructor(private readonly now: () => Date = () => new Date()) {
    this.bootedAt = now().getTime();
  }

  deny(server: string, jtis: readonly string[]): void {
    const at = this.now().getTime();
    let ids = this.denied.get(server);
    if (!ids) {
      ids = new Map();
      this.denied.set(server, ids);
    }
    for (const jti of jtis) ids.set(jti, at);
    for (const watcher of this.watchers) watcher(server, 'denied');
  }

  watch(watcher: (server: string, change: 'denied' | 'forgotten') => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /**
   * True when a token for `server` with this id and issue time must be refused; a token without
   * an issue time always is. `iat` has whole seconds, so a token issued in the same second as a
   * revocation (or the start) counts as issued before it: refused, the safe side.
   */
  isDenied(server: string, jti: string, issuedAt: Date | undefined): boolean {
    if (!issuedAt || Number.isNaN(issuedAt.getTime())) return true;
    const issued = issuedAt.getTime();
    if (issued < this.bootedAt) return true;
    const revokedAt = this.denied.get(server)?.get(jti);
    return revokedAt !== undefined && issued < revokedAt;
  }

  /** The server is gone from the node. */
  forget(server: string): void {
    this.denied.delete(server);
    for (const watcher of this.watchers) watcher(server, 'forgotten');
  }
}
