import type { Server } from '../../contract/servers';

export type StateTone = 'info' | 'warning' | 'danger';

export interface ServerCondition {
  /** Short badge text. */
  label: string;
  tone: StateTone;
  /** One sentence for the banner: what is going on and what it means for the user. */
  message: string;
}

/**
 * The conditions that block most actions (the server answers 409 while they last), most important first. `status` is checked before the deprecated
 * booleans so a real panel's values and ours read the same.
 */
export function serverConditions(
  server: Pick<Server, 'status' | 'is_suspended' | 'is_installing' | 'is_transferring' | 'is_node_under_maintenance'>,
): ServerCondition[] {
  const out: ServerCondition[] = [];
  const status = server.status;
  if (status === 'suspended' || server.is_suspended) {
    out.push({ label: 'Suspended', tone: 'danger', message: 'This server is suspended; most actions are unavailable.' });
  }
  if (status === 'install_failed' || status === 'reinstall_failed') {
    out.push({
      label: status === 'install_failed' ? 'Install failed' : 'Reinstall failed',
      tone: 'danger',
      message: 'The installation of this server failed; most actions are unavailable until an administrator fixes it.',
    });
  } else if (status === 'installing' || server.is_installing) {
    out.push({ label: 'Installing', tone: 'info', message: 'This server is being installed; most actions are unavailable until it finishes.' });
  }
  if (status === 'restoring_backup') {
    out.push({
      label: 'Restoring backup',
      tone: 'info',
      message: 'This server is restoring a backup; most actions are unavailable until it finishes.',
    });
  }
  if (server.is_transferring) {
    out.push({
      label: 'Transferring',
      tone: 'info',
      message: 'This server is being moved to another node; most actions are unavailable until it finishes.',
    });
  }
  if (server.is_node_under_maintenance) {
    out.push({ label: 'Node maintenance', tone: 'warning', message: 'The node of this server is under maintenance; most actions are unavailable.' });
  }
  return out;
}
