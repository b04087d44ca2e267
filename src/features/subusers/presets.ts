import { PERMISSIONS, type Permission } from '../../contract/permissions';

/** Starting points for the editor (no peer has them); each fills the boxes and can then be adjusted. */
export interface Preset {
  name: string;
  description: string;
  permissions: readonly Permission[];
}

export const PRESETS: readonly Preset[] = [
  {
    name: 'Moderator',
    description: 'Console, power and reading files.',
    permissions: ['control.console', 'control.start', 'control.stop', 'control.restart', 'file.read', 'file.read-content'],
  },
  {
    name: 'Developer',
    description: 'Files (with SFTP), startup and databases.',
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
    name: 'Viewer',
    description: 'Sees everything, changes nothing.',
    permissions: PERMISSIONS.filter((p) => p.endsWith('.read')),
  },
];
