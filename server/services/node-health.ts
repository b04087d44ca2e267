import type { Db } from '../db';
import { nodes } from '../db/repos';
import type { NodeRow } from '../db/schema';
import { nodeHealth, type NodeHealth } from '../daemon/wings/system';
import type { NodeDaemons } from './node-daemons';

/*
 * Whether each remote node answers (issue 24 §2): the panel asks every node with a daemon of its
 * own for `GET /api/system` every 30 seconds and keeps the last answer in memory, for root admins
 * (the server page's node line). A panel restart forgets it; the first round runs at once.
 */

export interface NodeHealthView {
  reachable: boolean;
  /** The node's daemon version, from its last answer. */
  version: string | null;
  /** When it last answered (ISO 8601), null when never since this panel started. */
  last_seen: string | null;
  /** When it was last asked. */
  checked_at: string;
  /** Why it does not answer. */
  reason: string | null;
}

export interface NodeHealthMonitor {
  /** The last answer of a remote node; undefined before its first check (or for the panel's own node). */
  get(nodeId: number): NodeHealthView | undefined;
  /** One round now: every remote node asked at once. */
  checkAll(): Promise<void>;
  /**
   * A round soon, unless one started in the last few seconds: when someone looks at a node not
   * known to answer (just created, just started), rather than leaving it unknown for up to 30 s.
   */
  refresh(): void;
  start(): void;
  stop(): void;
}

const REFRESH_AFTER_MS = 5_000;

export interface NodeHealthOptions {
  db: Db;
  daemons: Pick<NodeDaemons, 'tokenOf'>;
  now: () => Date;
  intervalMs?: number;
  check?: (baseUrl: string, token: string) => Promise<NodeHealth>;
}

export function nodeHealthMonitor(options: NodeHealthOptions): NodeHealthMonitor {
  const { db, daemons, now } = options;
  const check = options.check ?? nodeHealth;
  const last = new Map<number, NodeHealthView>();
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> | null = null;
  let roundStarted = 0;

  async function checkOne(node: NodeRow, baseUrl: string): Promise<void> {
    const answer = await check(baseUrl, daemons.tokenOf(node));
    const at = now().toISOString();
    const before = last.get(node.id);
    last.set(
      node.id,
      answer.reachable
        ? { reachable: true, version: answer.version, last_seen: at, checked_at: at, reason: null }
        : { reachable: false, version: before?.version ?? null, last_seen: before?.last_seen ?? null, checked_at: at, reason: answer.reason },
    );
  }

  async function checkAll(): Promise<void> {
    const remote = (await nodes.all(db)).flatMap((n) => (n.daemon_base_url === null ? [] : [{ node: n, url: n.daemon_base_url }]));
    const ids = new Set(remote.map((r) => r.node.id));
    for (const id of last.keys()) if (!ids.has(id)) last.delete(id);
    await Promise.all(remote.map((r) => checkOne(r.node, r.url)));
  }

  // One round at a time: a slow node (3 s timeout each) never stacks rounds up.
  const tick = () => {
    if (round) return;
    roundStarted = now().getTime();
    round = checkAll()
      .catch(() => undefined)
      .finally(() => {
        round = null;
      });
  };

  return {
    get: (nodeId) => last.get(nodeId),
    checkAll,
    refresh() {
      if (now().getTime() - roundStarted >= REFRESH_AFTER_MS) tick();
    },
    start() {
      if (timer) return;
      tick();
      timer = setInterval(tick, options.intervalMs ?? 30_000).unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
