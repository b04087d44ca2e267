import type { BrowserRoutes, DaemonEventChannel, FileCapability, NodeDaemon, ServerCapability } from '../daemon/capabilities';
import { DaemonError } from '../daemon/types';
import type { NodeRow } from '../db/schema';
import type { SecretBox } from '../lib/secret-box';
import { newNodeCredentials, openNodeToken, type NodeCredentials } from './node-credentials';

/** The daemon of each node: the one inside this panel, or the node's own across the network. */
export interface NodeDaemons {
  /** The daemon inside this panel, serving every node without a daemon address of its own. */
  local: NodeDaemon;
  /** What the local node serves browsers on the panel's origin; none where the panel runs no node (the CLI). */
  localRoutes?: BrowserRoutes;
  forNode(node: Pick<NodeRow, 'name' | 'daemon_base_url'>): NodeDaemon;
  /** The node's token in the clear: the key of the tokens signed for it. */
  tokenOf(node: Pick<NodeRow, 'daemon_token'>): string;
  /** Credentials for a new node, its token sealed. */
  newCredentials(): NodeCredentials;
}

/** `box` is the data dir's: node tokens are sealed under it. */
export function nodeDaemons(local: NodeDaemon, box: SecretBox, localRoutes?: BrowserRoutes): NodeDaemons {
  return {
    local,
    localRoutes,
    forNode: (node) => (node.daemon_base_url === null ? local : unreachableNode(node.name)),
    tokenOf: (node) => openNodeToken(box, node.daemon_token),
    newCredentials: () => newNodeCredentials(box),
  };
}

/**
 * A node this panel cannot talk to: every call is refused as `unavailable` (504), so its servers
 * still list and open while their files and controls say why they do not answer. Remote Wings
 * nodes land here until the panel speaks Wings' API.
 */
function unreachableNode(name: string): NodeDaemon {
  const refuse = (): Promise<never> =>
    Promise.reject(new DaemonError('unavailable', `The node ${name} cannot be reached from this panel: it only runs servers on its own node.`));
  const files: FileCapability = {
    list: refuse,
    read: refuse,
    open: refuse,
    write: refuse,
    upload: refuse,
    copy: refuse,
    delete: refuse,
    createDirectory: refuse,
    rename: refuse,
    compress: refuse,
    decompress: refuse,
  };
  const servers: ServerCapability = { sync: refuse, create: refuse, reinstall: refuse, delete: refuse, revokeSocketTokens: refuse };
  const events: DaemonEventChannel = { subscribe: () => () => undefined };
  return { files, servers, events };
}
