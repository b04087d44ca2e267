import type { Server } from '../../contract/servers';

export type StateTone = 'info' | 'warning' | 'danger';

export interface ServerCondition {
  /** Short badge text. */
  label: string;
  tone: StateTone;
  /** One sentence for the banner: what is going on and what it means for the user. */
  message: string;
  /** Why an action is unavailable, to follow "…because": "the server is suspended". */
  reason: string;
  /** The panel refuses the server's actions (409) while this lasts. */
  blocking: boolean;
}

/**
 * The conditions that block most actions (the server answers 409 while they last), most important first. `status` is checked before the deprecated
 * booleans so a real panel's values and ours read the same.
 */
export function serverConditions(
  server: Pick<Server, 'status' | 'is_suspended' | 'is_installing' | 'is_transferring' | 'is_node_under_maintenance'>,
  /** Where the reader finds the last install's output (`install-output.ts`); said after a failed reinstall. */
  installNote?: string,
): ServerCondition[] {
  const out: ServerCondition[] = [];
  const status = server.status;
  if (status === 'suspended' || server.is_suspended) {
    out.push({
      label: 'Suspended',
      tone: 'danger',
      message: 'This server is suspended; most actions are unavailable.',
      reason: 'the server is suspended',
      blocking: true,
    });
  }
  if (status === 'install_failed' || status === 'reinstall_failed') {
    out.push({
      label: status === 'install_failed' ? 'Install failed' : 'Reinstall failed',
      tone: 'danger',
      message:
        status === 'install_failed'
          ? 'The installation of this server failed; most actions are unavailable until an administrator fixes it.'
          : `The last reinstall of this server failed, so its files may be incomplete. Reinstall again from Settings.${installNote ? ` ${installNote}` : ''}`,
      reason: 'the installation of the server failed',
      // The reference panel refuses actions after a failed install, not after a failed reinstall.
      blocking: status === 'install_failed',
    });
  } else if (status === 'installing' || server.is_installing) {
    out.push({
      label: 'Installing',
      tone: 'info',
      message: 'This server is being installed; most actions are unavailable until it finishes.',
      reason: 'the server is being installed',
      blocking: true,
    });
  }
  if (status === 'restoring_backup') {
    out.push({
      label: 'Restoring backup',
      tone: 'info',
      message: 'A backup is being restored: the server stays stopped and most actions are unavailable until it finishes.',
      reason: 'the server is restoring a backup',
      blocking: true,
    });
  }
  if (server.is_transferring) {
    out.push({
      label: 'Transferring',
      tone: 'info',
      message: 'This server is being moved to another node; most actions are unavailable until it finishes.',
      reason: 'the server is being moved to another node',
      blocking: true,
    });
  }
  if (server.is_node_under_maintenance) {
    out.push({
      label: 'Node maintenance',
      tone: 'warning',
      message: 'The node of this server is under maintenance; most actions are unavailable.',
      reason: 'the node of the server is under maintenance',
      blocking: true,
    });
  }
  return out;
}

/** States that end by themselves (an install, a restore, a transfer): worth asking again soon. */
export function isSettling(server: Pick<Server, 'status' | 'is_installing' | 'is_transferring'>): boolean {
  return server.status === 'installing' || server.status === 'restoring_backup' || server.is_installing || server.is_transferring;
}
