import type { Server } from '../../contract/servers';
import { t } from './messages';

/*
 * Who can read the output of a server's install script, so that what the pages say about it is
 * true for the user reading them. A console receives it with Wings' `admin.websocket.install`,
 * which the reference panel and Aerie report to admins only; Aerie's node also replays the last
 * failed install when the console opens. Everyone else is sent to whoever can see it.
 */

export const INSTALL_OUTPUT_PERMISSION = 'admin.websocket.install';

export function seesInstallOutput(permissions: readonly string[]): boolean {
  return permissions.includes(INSTALL_OUTPUT_PERMISSION);
}

/** One sentence: where the current user finds the output of the server's last install. */
export function installOutputNote(permissions: readonly string[], server: Pick<Server, 'server_owner'>): string {
  if (seesInstallOutput(permissions)) return t('servers.installOutput.console');
  return t(server.server_owner ? 'servers.installOutput.admins' : 'servers.installOutput.owner');
}
