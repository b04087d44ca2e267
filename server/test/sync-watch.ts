import type { ServerConfiguration } from '../daemon/capabilities';
import type { LocalDaemon } from '../daemon/local';

/**
 * What the node took in after each sync of `server` the panel made: the configuration it fetched,
 * read from the node itself. Returns the list (it grows) and the function that stops watching.
 */
export function watchSyncs(daemon: LocalDaemon, server: string): { taken: ServerConfiguration[]; stop: () => void } {
  const taken: ServerConfiguration[] = [];
  const servers = daemon.servers;
  const sync = servers.sync.bind(servers);
  servers.sync = async (uuid) => {
    await sync(uuid);
    if (uuid === server) taken.push(await daemon.configuration(uuid));
  };
  return { taken, stop: () => void (servers.sync = sync) };
}
