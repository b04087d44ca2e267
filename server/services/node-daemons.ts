import type { BrowserRoutes, DaemonEvent, NodeDaemon } from '../daemon/capabilities';
import { WingsNode } from '../daemon/wings';
import type { NodeRow } from '../db/schema';
import type { SecretBox } from '../lib/secret-box';
import { newNodeCredentials, openNodeToken, type NodeCredentials } from './node-credentials';

type NodeAddress = Pick<NodeRow, 'id' | 'name' | 'daemon_base_url' | 'daemon_token'>;

/** The daemon of each node: the one inside this panel, or the node's own across the network. */
export interface NodeDaemons {
  /** The daemon inside this panel, serving every node without a daemon address of its own. */
  local: NodeDaemon;
  /** What the local node serves browsers on the panel's origin; none where the panel runs no node (the CLI). */
  localRoutes?: BrowserRoutes;
  /** The local daemon for a node without an address; a Wings client (one per node, kept) for any other. */
  forNode(node: NodeAddress): NodeDaemon;
  /** The node's token in the clear: the key of the tokens signed for it. */
  tokenOf(node: Pick<NodeRow, 'daemon_token'>): string;
  /** Credentials for a new node, its token sealed. */
  newCredentials(): NodeCredentials;
  /** What a remote node reported through the remote API, told to those listening to its events. */
  publish(node: NodeAddress, event: DaemonEvent): void;
}

/** `box` is the data dir's: node tokens are sealed under it. */
export function nodeDaemons(
  local: NodeDaemon,
  box: SecretBox,
  localRoutes?: BrowserRoutes,
  log: (message: string) => void = () => undefined,
): NodeDaemons {
  // One client per node, so its event listeners and last-seen states outlive a request; made
  // afresh when the node's address or token changed.
  const remote = new Map<number, { address: string; token: string; node: WingsNode }>();
  const tokenOf = (node: Pick<NodeRow, 'daemon_token'>) => openNodeToken(box, node.daemon_token);
  const wingsOf = (node: NodeAddress & { daemon_base_url: string }): WingsNode => {
    const held = remote.get(node.id);
    if (held && held.address === node.daemon_base_url && held.token === node.daemon_token) return held.node;
    const token = tokenOf(node);
    const made = new WingsNode({ name: node.name, baseUrl: node.daemon_base_url, token: () => token, log });
    remote.set(node.id, { address: node.daemon_base_url, token: node.daemon_token, node: made });
    return made;
  };
  return {
    local,
    localRoutes,
    forNode: (node) => (node.daemon_base_url === null ? local : wingsOf({ ...node, daemon_base_url: node.daemon_base_url })),
    tokenOf,
    newCredentials: () => newNodeCredentials(box),
    publish: (node, event) => {
      if (node.daemon_base_url !== null) wingsOf({ ...node, daemon_base_url: node.daemon_base_url }).events.publish(event);
    },
  };
}
