import type { Db } from '../db';
import { nodes } from '../db/repos';

/**
 * The origins of the nodes the browser talks to directly, as the database holds them now: read at
 * most every `ttlMs`, and at once after this process changed a node (`nodes.changeCount`). A node
 * the CLI adds from another process is named within `ttlMs`, without a restart.
 */
export interface NodeOrigins {
  /** What `refresh` last read; synchronous, for the header. */
  current(): readonly string[];
  /** Reads the nodes again if the last read is stale; cheap when it is not. */
  refresh(): Promise<void>;
}

export function nodeOrigins(db: Db, ttlMs = 5_000, now: () => number = Date.now): NodeOrigins {
  let origins: readonly string[] = [];
  let readAt = Number.NEGATIVE_INFINITY;
  let readChange = -1;
  return {
    current: () => origins,
    async refresh() {
      const change = nodes.changeCount();
      if (change === readChange && now() - readAt < ttlMs) return;
      readChange = change;
      readAt = now();
      origins = connectOrigins(await nodes.daemonUrls(db));
    },
  };
}

/** `https://node:8080` → itself plus `wss://node:8080`, for connect-src. */
export function connectOrigins(baseUrls: readonly string[]): string[] {
  const out: string[] = [];
  for (const base of baseUrls) {
    let url: URL;
    try {
      url = new URL(base);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    out.push(url.origin, `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`);
  }
  return out;
}
