/*
 * One readable sentence per event, after the reference panel's English strings, in the language
 * being shown: each is a message whose placeholders are filled from the entry's properties
 * (`say(key, 'name', 'file=files.0')`: the placeholder `{file}` takes `properties.files[0]`).
 * Events about several files are one plural message over the count (`=1` names the file). A list
 * of sentences is tried in order and the first whose values are all non-empty wins, so a value
 * that was unset (allocation notes are null until first written) reads "Set the notes … to …"
 * rather than "from "" to …"; when every one has an empty value the first is used as it is. The
 * result is plain text and is rendered as text, never as HTML.
 */

import type { ActivityEvent } from '../../contract/activity';
import { t } from './messages';

type Key = Parameters<typeof t>[0];

/** A message and the property path each of its placeholders takes. */
interface Sentence {
  key: Key;
  values: Record<string, string>;
}

/** A message over the entry's count: the paths it needs for one file, and for several. */
interface Counted {
  key: Key;
  one: Record<string, string>;
  other: Record<string, string>;
}

type Template = Sentence | readonly Sentence[] | Counted;

/** `'name'` fills `{name}` from `properties.name`; `'file=files.0'` fills `{file}` from `properties.files[0]`. */
function placeholders(specs: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    specs.map((spec) => {
      const [name = spec, path = spec] = spec.split('=');
      return [name, path];
    }),
  );
}

const say = (key: Key, ...specs: string[]): Sentence => ({ key, values: placeholders(specs) });
const counted = (key: Key, one: string[], other: string[]): Counted => ({ key, one: placeholders(one), other: placeholders(other) });

// Every event the contract names has a sentence: a new event name does not compile without one.
const SENTENCES: Record<ActivityEvent, Template> = {
  'auth:success': say('activity.event.auth.success'),
  'auth:fail': say('activity.event.auth.fail'),
  'auth:checkpoint': say('activity.event.auth.checkpoint'),
  'auth:password-reset': say('activity.event.auth.password-reset'),
  'auth:reset-password': say('activity.event.auth.reset-password'),
  'auth:recovery-token': say('activity.event.auth.recovery-token'),
  'auth:token': say('activity.event.auth.token'),
  'auth:ip-blocked': say('activity.event.auth.ip-blocked', 'identifier'),
  'auth:sftp.fail': say('activity.event.auth.sftp.fail'),
  'user:account.email-changed': say('activity.event.user.account.email-changed', 'old', 'new'),
  'user:account.password-changed': say('activity.event.user.account.password-changed'),
  'user:account.preferences-changed': say('activity.event.user.account.preferences-changed'),
  'user:api-key.create': say('activity.event.user.api-key.create', 'identifier'),
  'user:api-key.delete': say('activity.event.user.api-key.delete', 'identifier'),
  'user:ssh-key.create': say('activity.event.user.ssh-key.create', 'fingerprint'),
  'user:ssh-key.delete': say('activity.event.user.ssh-key.delete', 'fingerprint'),
  'user:two-factor.create': say('activity.event.user.two-factor.create'),
  'user:two-factor.delete': say('activity.event.user.two-factor.delete'),
  'server:reinstall': say('activity.event.server.reinstall'),
  'server:power.start': say('activity.event.server.power.start'),
  'server:power.stop': say('activity.event.server.power.stop'),
  'server:power.restart': say('activity.event.server.power.restart'),
  'server:power.kill': say('activity.event.server.power.kill'),
  'server:console.command': say('activity.event.server.console.command', 'command'),
  'server:backup.download': say('activity.event.server.backup.download', 'name'),
  'server:backup.delete': say('activity.event.server.backup.delete', 'name'),
  'server:backup.restore': say('activity.event.server.backup.restore', 'name', 'truncate'),
  'server:backup.restore-complete': say('activity.event.server.backup.restore-complete', 'name'),
  'server:backup.restore-failed': say('activity.event.server.backup.restore-failed', 'name'),
  'server:backup.start': say('activity.event.server.backup.start', 'name'),
  'server:backup.complete': say('activity.event.server.backup.complete', 'name'),
  'server:backup.fail': say('activity.event.server.backup.fail', 'name'),
  'server:backup.lock': say('activity.event.server.backup.lock', 'name'),
  'server:backup.unlock': say('activity.event.server.backup.unlock', 'name'),
  'server:database.create': say('activity.event.server.database.create', 'name'),
  'server:database.rotate-password': say('activity.event.server.database.rotate-password', 'name'),
  'server:database.delete': say('activity.event.server.database.delete', 'name'),
  'server:file.compress': counted('activity.event.server.file.compress', ['directory', 'file=files.0'], ['directory']),
  'server:file.read': say('activity.event.server.file.read', 'file'),
  'server:file.copy': say('activity.event.server.file.copy', 'file'),
  'server:file.create-directory': say('activity.event.server.file.create-directory', 'directory', 'name'),
  'server:file.decompress': say('activity.event.server.file.decompress', 'files', 'directory'),
  'server:file.delete': counted('activity.event.server.file.delete', ['directory', 'file=files.0'], ['directory']),
  'server:file.download': say('activity.event.server.file.download', 'file'),
  'server:file.pull': say('activity.event.server.file.pull', 'url', 'directory'),
  'server:file.rename': counted('activity.event.server.file.rename', ['directory', 'from=files.0.from', 'to=files.0.to'], ['directory']),
  'server:file.write': say('activity.event.server.file.write', 'file'),
  'server:file.upload': say('activity.event.server.file.upload'),
  'server:file.uploaded': say('activity.event.server.file.uploaded', 'directory', 'file'),
  'server:sftp.denied': say('activity.event.server.sftp.denied'),
  'server:sftp.create': counted('activity.event.server.sftp.create', ['file=files.0'], []),
  'server:sftp.write': counted('activity.event.server.sftp.write', ['file=files.0'], []),
  'server:sftp.delete': counted('activity.event.server.sftp.delete', ['file=files.0'], []),
  'server:sftp.create-directory': counted('activity.event.server.sftp.create-directory', ['file=files.0'], []),
  'server:sftp.rename': counted('activity.event.server.sftp.rename', ['from=files.0.from', 'to=files.0.to'], []),
  'server:allocation.create': say('activity.event.server.allocation.create', 'allocation'),
  'server:allocation.notes': [
    say('activity.event.server.allocation.notes', 'allocation', 'old', 'new'),
    say('activity.event.server.allocation.notes.set', 'allocation', 'new'),
    say('activity.event.server.allocation.notes.cleared', 'allocation', 'old'),
  ],
  'server:allocation.primary': say('activity.event.server.allocation.primary', 'allocation'),
  'server:allocation.delete': say('activity.event.server.allocation.delete', 'allocation'),
  'server:schedule.create': say('activity.event.server.schedule.create', 'name'),
  'server:schedule.update': say('activity.event.server.schedule.update', 'name'),
  'server:schedule.execute': say('activity.event.server.schedule.execute', 'name'),
  'server:schedule.delete': say('activity.event.server.schedule.delete', 'name'),
  'server:task.create': say('activity.event.server.task.create', 'action', 'name'),
  'server:task.update': say('activity.event.server.task.update', 'action', 'name'),
  'server:task.delete': say('activity.event.server.task.delete', 'name'),
  'server:settings.rename': say('activity.event.server.settings.rename', 'old', 'new'),
  'server:settings.description': [
    say('activity.event.server.settings.description', 'old', 'new'),
    say('activity.event.server.settings.description.set', 'new'),
    say('activity.event.server.settings.description.cleared', 'old'),
  ],
  'server:settings.build': say('activity.event.server.settings.build', 'summary'),
  'server:startup.edit': say('activity.event.server.startup.edit', 'variable', 'old', 'new'),
  'server:startup.image': say('activity.event.server.startup.image', 'old', 'new'),
  'server:subuser.create': say('activity.event.server.subuser.create', 'email'),
  'server:subuser.update': say('activity.event.server.subuser.update', 'email'),
  'server:subuser.delete': say('activity.event.server.subuser.delete', 'email'),
  'admin:user.create': say('activity.event.admin.user.create', 'email'),
  'admin:user.update': [
    say('activity.event.admin.user.update.passwordLink', 'email', 'password_link'),
    say('activity.event.admin.user.update', 'email'),
  ],
  'admin:user.delete': say('activity.event.admin.user.delete', 'email'),
  'admin:user.two-factor.delete': say('activity.event.admin.user.two-factor.delete', 'email'),
  'admin:location.create': say('activity.event.admin.location.create', 'short'),
  'admin:location.update': say('activity.event.admin.location.update', 'short'),
  'admin:location.delete': say('activity.event.admin.location.delete', 'short'),
  'admin:node.create': say('activity.event.admin.node.create', 'name'),
  'admin:node.update': say('activity.event.admin.node.update', 'name'),
  'admin:node.delete': say('activity.event.admin.node.delete', 'name'),
  'admin:allocation.create': say('activity.event.admin.allocation.create', 'summary'),
  'admin:allocation.update': say('activity.event.admin.allocation.update', 'allocation'),
  'admin:allocation.delete': say('activity.event.admin.allocation.delete', 'allocation'),
  'admin:server.create': say('activity.event.admin.server.create', 'name'),
  'admin:server.details': say('activity.event.admin.server.details', 'name'),
  'admin:server.build': say('activity.event.admin.server.build', 'name'),
  'admin:server.startup': say('activity.event.admin.server.startup', 'name'),
  'admin:server.suspend': say('activity.event.admin.server.suspend', 'name'),
  'admin:server.unsuspend': say('activity.event.admin.server.unsuspend', 'name'),
  'admin:server.reinstall': say('activity.event.admin.server.reinstall', 'name'),
  'admin:server.transfer': say('activity.event.admin.server.transfer', 'name', 'node'),
  'admin:server.delete': say('activity.event.admin.server.delete', 'name'),
  'admin:database.create': say('activity.event.admin.database.create', 'name'),
  'admin:database.rotate-password': say('activity.event.admin.database.rotate-password', 'name'),
  'admin:database.delete': say('activity.event.admin.database.delete', 'name'),
  'admin:database-host.create': say('activity.event.admin.database-host.create', 'name'),
  'admin:database-host.update': say('activity.event.admin.database-host.update', 'name'),
  'admin:database-host.delete': say('activity.event.admin.database-host.delete', 'name'),
  'admin:egg.create': say('activity.event.admin.egg.create', 'name'),
  'admin:egg.import': say('activity.event.admin.egg.import', 'name'),
  'admin:egg.update': say('activity.event.admin.egg.update', 'name'),
  'admin:egg.delete': say('activity.event.admin.egg.delete', 'name'),
  'admin:nest.create': say('activity.event.admin.nest.create', 'name'),
  'admin:nest.update': say('activity.event.admin.nest.update', 'name'),
  'admin:nest.delete': say('activity.event.admin.nest.delete', 'name'),
  'admin:api-key.create': say('activity.event.admin.api-key.create', 'identifier'),
  'admin:api-key.delete': say('activity.event.admin.api-key.delete', 'identifier'),
  'admin:settings.update': say('activity.event.admin.settings.update'),
};

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
  if ('one' in template) {
    const count = countOf(properties);
    const filled = fill(count === 1 ? template.one : template.other, properties);
    return filled && t(template.key, { ...filled.values, count });
  }
  const candidates: readonly Sentence[] = 'key' in template ? [template] : template;
  let withEmpty: string | null = null;
  for (const sentence of candidates) {
    const filled = fill(sentence.values, properties);
    if (filled === null) continue;
    const text = t(sentence.key, filled.values);
    if (!filled.empty) return text;
    withEmpty ??= text;
  }
  return withEmpty;
}

/** Each placeholder's text from its property; null when one is absent, `empty` when one is null or ''. */
function fill(paths: Record<string, string>, properties: Record<string, unknown>): { values: Record<string, string>; empty: boolean } | null {
  let empty = false;
  const values: Record<string, string> = {};
  for (const [name, path] of Object.entries(paths)) {
    const value = lookup(properties, path);
    if (value === undefined) return null;
    if (value === null || value === '') empty = true;
    values[name] = value === null ? '' : asText(value);
  }
  return { values, empty };
}
