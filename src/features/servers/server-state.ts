import type { Server } from '../../contract/servers';
import { t } from './messages';

export type StateTone = 'info' | 'warning' | 'danger';

export type ConditionKind = 'suspended' | 'install-failed' | 'reinstall-failed' | 'installing' | 'restoring' | 'transferring' | 'maintenance';

/**
 * The words are in the language of the moment (`t`): a component that shows them uses the
 * catalogue's `useT`, so it renders again when the language changes and reads them anew.
 */
export interface ServerCondition {
  kind: ConditionKind;
  /** Short badge text. */
  label: string;
  tone: StateTone;
  /** One sentence for the banner: what is going on and what it means for the user. */
  message: string;
  /** Why an action is unavailable, a clause that can stand alone: "the server is suspended". */
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
      kind: 'suspended',
      label: t('servers.condition.suspended.label'),
      tone: 'danger',
      message: t('servers.condition.suspended.message'),
      reason: t('servers.condition.suspended.reason'),
      blocking: true,
    });
  }
  if (status === 'install_failed' || status === 'reinstall_failed') {
    const install = status === 'install_failed';
    out.push({
      kind: install ? 'install-failed' : 'reinstall-failed',
      label: t(install ? 'servers.condition.installFailed.label' : 'servers.condition.reinstallFailed.label'),
      tone: 'danger',
      // Two sentences: the second, where to find the output, is added when there is one to say.
      message: install
        ? t('servers.condition.installFailed.message')
        : [t('servers.condition.reinstallFailed.message'), installNote].filter(Boolean).join(' '),
      reason: t('servers.condition.installFailed.reason'),
      // The reference panel refuses actions after a failed install, not after a failed reinstall.
      blocking: install,
    });
  } else if (status === 'installing' || server.is_installing) {
    out.push({
      kind: 'installing',
      label: t('servers.condition.installing.label'),
      tone: 'info',
      message: t('servers.condition.installing.message'),
      reason: t('servers.condition.installing.reason'),
      blocking: true,
    });
  }
  if (status === 'restoring_backup') {
    out.push({
      kind: 'restoring',
      label: t('servers.condition.restoring.label'),
      tone: 'info',
      message: t('servers.condition.restoring.message'),
      reason: t('servers.condition.restoring.reason'),
      blocking: true,
    });
  }
  if (server.is_transferring) {
    out.push({
      kind: 'transferring',
      label: t('servers.condition.transferring.label'),
      tone: 'info',
      message: t('servers.condition.transferring.message'),
      reason: t('servers.condition.transferring.reason'),
      blocking: true,
    });
  }
  if (server.is_node_under_maintenance) {
    out.push({
      kind: 'maintenance',
      label: t('servers.condition.maintenance.label'),
      tone: 'warning',
      message: t('servers.condition.maintenance.message'),
      reason: t('servers.condition.maintenance.reason'),
      blocking: true,
    });
  }
  return out;
}

/** States that end by themselves (an install, a restore, a transfer): worth asking again soon. */
export function isSettling(server: Pick<Server, 'status' | 'is_installing' | 'is_transferring'>): boolean {
  return server.status === 'installing' || server.status === 'restoring_backup' || server.is_installing || server.is_transferring;
}
