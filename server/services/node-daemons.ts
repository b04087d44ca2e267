import type { DaemonEventChannel, FileCapability, NodeDaemon, ServerCapability } from '../daemon/capabilities';
import { DaemonError } from '../daemon/types';
import type { NodeRow } from '../db/schema';

/** The daemon of each node: the one inside this panel, or the node's own across the network. */
export interface NodeDaemons {
  /** The daemon inside this panel, serving every node without a daemon address of its own. */
  local: NodeDaemon;
  forNode(node: Pick<NodeRow, 'name' | 'daemon_base_url'>): NodeDaemon;
}

export function nodeDaemons(local: NodeDaemon): NodeDaemons {
  return { local, forNode: (node) => (node.daemon_base_url === null ? local : unreachableNode(node.name)) };
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
  const servers: ServerCapability = { configure: refuse, create: refuse, reinstall: refuse, delete: refuse, revokeSocketTokens: refuse };
  const events: DaemonEventChannel = { subscribe: () => () => undefined };
  return { files, servers, events };
}
