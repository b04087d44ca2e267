/*
 * One readable sentence per event, after the reference panel's English strings. `:key` and
 * `:key.0.sub` are filled from the entry's properties. A list of templates is tried in order and
 * the first whose values are all non-empty wins, so a value that was unset (allocation notes are
 * null until first written) reads "Set the notes … to …" rather than "from "" to …"; when every
 * template has an empty value the first is used as it is. The result is plain text and is rendered
 * as text, never as HTML.
 */

import type { ActivityEvent } from '../../contract/activity';

type Template = string | readonly string[] | { one: string; other: string };

// Every event the contract names has a sentence: a new event name does not compile without one.
const SENTENCES: Record<ActivityEvent, Template> = {
  'auth:success': 'Signed in',
  'auth:fail': 'Failed to sign in',
  'auth:checkpoint': 'Two-factor authentication requested',
  'auth:password-reset': 'Reset the password',
  'auth:reset-password': 'Asked for a password reset',
  'auth:recovery-token': 'Used a two-factor recovery token',
  'auth:token': 'Passed the two-factor check',
  'auth:ip-blocked': 'Blocked a request from an address not allowed for :identifier',
  'auth:sftp.fail': 'Failed to sign in over SFTP',
  'user:account.email-changed': 'Changed the email from :old to :new',
  'user:account.password-changed': 'Changed the password',
  'user:account.preferences-changed': 'Changed the account preferences',
  'user:api-key.create': 'Created the API key :identifier',
  'user:api-key.delete': 'Deleted the API key :identifier',
  'user:ssh-key.create': 'Added the SSH key :fingerprint',
  'user:ssh-key.delete': 'Removed the SSH key :fingerprint',
  'user:two-factor.create': 'Turned on two-factor authentication',
  'user:two-factor.delete': 'Turned off two-factor authentication',
  'server:reinstall': 'Reinstalled the server',
  'server:power.start': 'Started the server',
  'server:power.stop': 'Stopped the server',
  'server:power.restart': 'Restarted the server',
  'server:power.kill': 'Killed the server process',
  'server:console.command': 'Executed ":command" on the server',
  'server:backup.download': 'Downloaded the :name backup',
  'server:backup.delete': 'Deleted the :name backup',
  'server:backup.restore': 'Restored the :name backup (deleted files: :truncate)',
  'server:backup.restore-complete': 'Completed restoration of the :name backup',
  'server:backup.restore-failed': 'Failed to complete restoration of the :name backup',
  'server:backup.start': 'Started a new backup :name',
  'server:backup.complete': 'Marked the :name backup as complete',
  'server:backup.fail': 'Marked the :name backup as failed',
  'server:backup.lock': 'Locked the :name backup',
  'server:backup.unlock': 'Unlocked the :name backup',
  'server:database.create': 'Created new database :name',
  'server:database.rotate-password': 'Rotated the password of database :name',
  'server:database.delete': 'Deleted database :name',
  'server:file.compress': { one: 'Compressed :directory:files.0', other: 'Compressed :count files in :directory' },
  'server:file.read': 'Viewed the contents of :file',
  'server:file.copy': 'Created a copy of :file',
  'server:file.create-directory': 'Created directory :directory:name',
  'server:file.decompress': 'Decompressed :files in :directory',
  'server:file.delete': { one: 'Deleted :directory:files.0', other: 'Deleted :count files in :directory' },
  'server:file.download': 'Downloaded :file',
  'server:file.pull': 'Downloaded a remote file from :url to :directory',
  'server:file.rename': { one: 'Renamed :directory:files.0.from to :directory:files.0.to', other: 'Renamed :count files in :directory' },
  'server:file.write': 'Wrote new content to :file',
  'server:file.upload': 'Began a file upload',
  'server:file.uploaded': 'Uploaded :directory:file',
  'server:sftp.denied': 'Blocked SFTP access due to permissions',
  'server:sftp.create': { one: 'Created :files.0', other: 'Created :count new files' },
  'server:sftp.write': { one: 'Modified the contents of :files.0', other: 'Modified the contents of :count files' },
  'server:sftp.delete': { one: 'Deleted :files.0', other: 'Deleted :count files' },
  'server:sftp.create-directory': { one: 'Created the :files.0 directory', other: 'Created :count directories' },
  'server:sftp.rename': { one: 'Renamed :files.0.from to :files.0.to', other: 'Renamed or moved :count files' },
  'server:allocation.create': 'Added :allocation to the server',
  'server:allocation.notes': [
    'Updated the notes for :allocation from ":old" to ":new"',
    'Set the notes for :allocation to ":new"',
    'Cleared the notes for :allocation (were ":old")',
  ],
  'server:allocation.primary': 'Set :allocation as the primary server allocation',
  'server:allocation.delete': 'Deleted the :allocation allocation',
  'server:schedule.create': 'Created the :name schedule',
  'server:schedule.update': 'Updated the :name schedule',
  'server:schedule.execute': 'Manually executed the :name schedule',
  'server:schedule.delete': 'Deleted the :name schedule',
  'server:task.create': 'Created a new ":action" task for the :name schedule',
  'server:task.update': 'Updated the ":action" task for the :name schedule',
  'server:task.delete': 'Deleted a task for the :name schedule',
  'server:settings.rename': 'Renamed the server from ":old" to ":new"',
  'server:settings.description': [
    'Changed the server description from ":old" to ":new"',
    'Set the server description to ":new"',
    'Cleared the server description (was ":old")',
  ],
  'server:settings.build': 'Changed :summary',
  'server:startup.edit': 'Changed the :variable variable from ":old" to ":new"',
  'server:startup.image': 'Updated the Docker image for the server from :old to :new',
  'server:subuser.create': 'Added :email as a subuser',
  'server:subuser.update': 'Updated the subuser permissions for :email',
  'server:subuser.delete': 'Removed :email as a subuser',
  'admin:user.create': 'Created the account :email',
  // A password link is logged as an account change; it says which (`password_link`: mailed or shown to the admin).
  'admin:user.update': ['Made a password link for :email (:password_link)', 'Changed the account :email'],
  'admin:user.delete': 'Deleted the account :email',
  'admin:user.two-factor.delete': 'Turned off two-factor authentication for :email',
  'admin:location.create': 'Created the location :short',
  'admin:location.update': 'Changed the location :short',
  'admin:location.delete': 'Deleted the location :short',
  'admin:node.create': 'Created the node :name',
  'admin:node.update': 'Changed the node :name',
  'admin:node.delete': 'Deleted the node :name',
  'admin:allocation.create': 'Added the allocations :summary',
  'admin:allocation.update': 'Changed the allocation :allocation',
  'admin:allocation.delete': 'Removed the allocation :allocation',
  'admin:server.create': 'Created the server :name',
  'admin:server.details': 'Changed the details of :name',
  'admin:server.build': 'Changed the limits of :name',
  'admin:server.startup': 'Changed the startup of :name',
  'admin:server.suspend': 'Suspended :name',
  'admin:server.unsuspend': 'Unsuspended :name',
  'admin:server.reinstall': 'Reinstalled :name',
  'admin:server.transfer': 'Moved :name to the node :node',
  'admin:server.delete': 'Deleted the server :name',
  'admin:database.create': 'Created the database :name',
  'admin:database.rotate-password': 'Rotated the password of database :name',
  'admin:database.delete': 'Deleted the database :name',
  'admin:database-host.create': 'Added the database host :name',
  'admin:database-host.update': 'Changed the database host :name',
  'admin:database-host.delete': 'Removed the database host :name',
  'admin:egg.create': 'Created the egg :name',
  'admin:egg.import': 'Imported the egg :name',
  'admin:egg.update': 'Changed the egg :name',
  'admin:egg.delete': 'Deleted the egg :name',
  'admin:nest.create': 'Created the nest :name',
  'admin:nest.update': 'Changed the nest :name',
  'admin:nest.delete': 'Deleted the nest :name',
  'admin:api-key.create': 'Created the application key :identifier',
  'admin:api-key.delete': 'Revoked the application key :identifier',
  'admin:settings.update': 'Changed the panel settings',
};

const PLACEHOLDER = /:([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*)/gi;

function lookup(properties: Record<string, unknown>, path: string): unknown {
  let value: unknown = properties;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(asText).join(', ');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

function countOf(properties: Record<string, unknown>): number {
  if (typeof properties.count === 'number') return properties.count;
  const files = properties.files;
  return Array.isArray(files) ? files.length : 1;
}

function isKnown(event: string): event is ActivityEvent {
  return Object.hasOwn(SENTENCES, event);
}

/** The sentence for an entry, or null when the event is unknown or a property it needs is absent. */
export function describeActivity(event: string, properties: Record<string, unknown>): string | null {
  const template = isKnown(event) ? SENTENCES[event] : undefined;
  if (template === undefined) return null;
  const candidates: readonly string[] =
    typeof template === 'string' ? [template] : 'one' in template ? [countOf(properties) === 1 ? template.one : template.other] : template;
  let withEmpty: string | null = null;
  for (const text of candidates) {
    const filled = fill(text, properties);
    if (filled === null) continue;
    if (!filled.empty) return filled.sentence;
    withEmpty ??= filled.sentence;
  }
  return withEmpty;
}

/** `text` with its placeholders filled; null when one is absent, `empty` when one is null or ''. */
function fill(text: string, properties: Record<string, unknown>): { sentence: string; empty: boolean } | null {
  let absent = false;
  let empty = false;
  const sentence = text.replace(PLACEHOLDER, (_match, path: string) => {
    const value = lookup(properties, path);
    if (value === undefined) absent = true;
    if (value === null || value === '') empty = true;
    return value === undefined || value === null ? '' : asText(value);
  });
  return absent ? null : { sentence, empty };
}
