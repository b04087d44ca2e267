// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { ACTIVITY_EVENTS } from '../../contract/activity';
import { LOCALES } from '../../lib/i18n/locales';
import { changeLocale } from '../../lib/i18n/runtime';
import { describeActivity } from './activity-sentence';

// Every property any sentence names, with a value of the shape the panel writes.
const SAMPLE: Record<string, unknown> = {
  identifier: 'key_1',
  fingerprint: 'mV9xGb',
  command: 'say hi',
  name: 'Nightly',
  truncate: true,
  directory: '/plugins/',
  file: 'a.jar',
  files: ['a.jar', 'b.jar'],
  count: 2,
  url: 'https://example.com/a.jar',
  allocation: '127.0.0.1:25565',
  short: 'eu-west',
  node: 'eu-1',
  action: 'command',
  variable: 'SERVER_JARFILE',
  email: 'sam@example.com',
  old: 'before',
  new: 'after',
  summary: 'memory 1024 → 2048 MiB',
};

describe('every event the contract names', () => {
  it.each(ACTIVITY_EVENTS)('%s has a sentence', (event) => {
    const sentence = describeActivity(event, SAMPLE);
    expect(sentence).toBeTruthy();
    // Every placeholder was filled.
    expect(sentence).not.toMatch(/:[a-z_]/i);
  });
});

describe('describeActivity', () => {
  it('fills placeholders from properties', () => {
    expect(describeActivity('server:console.command', { command: 'say hi' })).toBe('Executed "say hi" on the server');
    expect(describeActivity('server:file.uploaded', { directory: '/plugins/', file: 'a.jar' })).toBe('Uploaded /plugins/a.jar');
  });

  it('picks singular or plural from the count', () => {
    expect(describeActivity('server:file.delete', { directory: '/logs/', files: ['a.log'], count: 1 })).toBe('Deleted /logs/a.log');
    expect(describeActivity('server:file.delete', { directory: '/logs/', files: ['a', 'b'], count: 2 })).toBe('Deleted 2 files in /logs/');
    expect(describeActivity('server:file.rename', { directory: '/', files: [{ from: 'a', to: 'b' }], count: 1 })).toBe('Renamed /a to /b');
  });

  it('describes account and reinstall events too, as the reference panel names them', () => {
    expect(describeActivity('user:ssh-key.create', { fingerprint: 'mV9xGb' })).toBe('Added the SSH key mV9xGb');
    expect(describeActivity('server:reinstall', {})).toBe('Reinstalled the server');
    expect(describeActivity('server:settings.reinstall', {})).toBeNull();
  });

  it('tells an admin’s password link apart from other changes to the account', () => {
    const email = 'sam@example.com';
    expect(describeActivity('admin:user.update', { email, changed: ['password_link'], password_link: 'shown' })).toBe(
      'Made a password link for sam@example.com (shown)',
    );
    expect(describeActivity('admin:user.update', { email, changed: ['first_name'] })).toBe('Changed the account sam@example.com');
  });

  it('returns null for unknown events and missing properties', () => {
    expect(describeActivity('server:made.up', {})).toBeNull();
    expect(describeActivity('server:console.command', {})).toBeNull();
    expect(describeActivity('constructor', {})).toBeNull();
  });

  it('keeps property values as plain text, without substituting twice', () => {
    expect(describeActivity('server:file.write', { file: '<b>:file</b>' })).toBe('Wrote new content to <b>:file</b>');
  });

  it('reads notes and descriptions that were unset or cleared', () => {
    const allocation = '127.0.0.1:25600';
    expect(describeActivity('server:allocation.notes', { allocation, old: null, new: 'Dynmap web map' })).toBe(
      'Set the notes for 127.0.0.1:25600 to "Dynmap web map"',
    );
    expect(describeActivity('server:allocation.notes', { allocation, old: 'Dynmap', new: '' })).toBe(
      'Cleared the notes for 127.0.0.1:25600 (were "Dynmap")',
    );
    expect(describeActivity('server:allocation.notes', { allocation, old: 'a', new: 'b' })).toBe(
      'Updated the notes for 127.0.0.1:25600 from "a" to "b"',
    );
    expect(describeActivity('server:settings.description', { old: '', new: 'Friends only' })).toBe('Set the server description to "Friends only"');
    expect(describeActivity('server:startup.edit', { variable: 'MOTD', old: null, new: 'Hi' })).toBe('Changed the MOTD variable from "" to "Hi"');
  });
});

describe('in the other languages', () => {
  afterEach(() => changeLocale('en'));

  it.each(LOCALES.filter((l) => l !== 'en'))('%s says every event in its own words, every placeholder filled', async (locale) => {
    await changeLocale(locale);
    for (const event of ACTIVITY_EVENTS) {
      const sentence = describeActivity(event, SAMPLE);
      expect(sentence, event).toBeTruthy();
      expect(sentence, event).not.toMatch(/[{}]/);
    }
    expect(describeActivity('server:power.start', {})).not.toBe('Started the server');
  });

  it('counts with each language’s plural forms and names a single file', async () => {
    await changeLocale('ru');
    expect(describeActivity('server:file.delete', { directory: '/logs/', files: ['a'], count: 1 })).toBe('Удалён /logs/a');
    expect(describeActivity('server:file.delete', { directory: '/logs/', count: 3 })).toBe('Удалено 3 файла в /logs/');
    expect(describeActivity('server:file.delete', { directory: '/logs/', count: 5 })).toBe('Удалено 5 файлов в /logs/');
    await changeLocale('de');
    expect(describeActivity('server:backup.restore', { name: 'Nightly', truncate: true })).toBe(
      'Backup Nightly wiederhergestellt (Dateien gelöscht: ja)',
    );
    expect(describeActivity('server:allocation.notes', { allocation: '127.0.0.1:25600', old: null, new: 'Map' })).toBe(
      'Notizen für 127.0.0.1:25600 auf „Map“ gesetzt',
    );
  });
});
