import type { Server } from '../../contract/servers';

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
  if (seesInstallOutput(permissions)) return 'Its output is at the end of the console.';
  return server.server_owner
    ? 'Its output is shown only to the panel’s administrators: ask one of them for it.'
    : 'Its output is not shown to you: ask the server’s owner.';
}
