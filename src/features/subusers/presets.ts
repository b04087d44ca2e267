import { PERMISSIONS, type Permission } from '../../contract/permissions';
import type { useT } from './messages';

type Key = Parameters<ReturnType<typeof useT>>[0];

/** Starting points for the editor (no peer has them); each fills the boxes and can then be adjusted. Name and description are messages. */
export interface Preset {
  name: Key;
  description: Key;
  permissions: readonly Permission[];
}

export const PRESETS: readonly Preset[] = [
  {
    name: 'subusers.preset.moderator.name',
    description: 'subusers.preset.moderator.description',
    permissions: ['control.console', 'control.start', 'control.stop', 'control.restart', 'file.read', 'file.read-content'],
  },
  {
    name: 'subusers.preset.developer.name',
    description: 'subusers.preset.developer.description',
    permissions: [
      'file.create',
      'file.read',
      'file.read-content',
      'file.update',
      'file.delete',
      'file.archive',
      'file.sftp',
      'startup.read',
      'startup.update',
      'startup.docker-image',
      'database.create',
      'database.read',
      'database.update',
      'database.delete',
      'database.view_password',
    ],
  },
  {
    name: 'subusers.preset.viewer.name',
    description: 'subusers.preset.viewer.description',
    permissions: PERMISSIONS.filter((p) => p.endsWith('.read')),
  },
];
