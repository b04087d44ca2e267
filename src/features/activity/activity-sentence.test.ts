import { describe, expect, it } from 'vitest';
import { describeActivity } from './activity-sentence';

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

  it('returns null for unknown events and missing properties', () => {
    expect(describeActivity('server:made.up', {})).toBeNull();
    expect(describeActivity('server:console.command', {})).toBeNull();
    expect(describeActivity('constructor', {})).toBeNull();
  });

  it('keeps property values as plain text, without substituting twice', () => {
    expect(describeActivity('server:file.write', { file: '<b>:file</b>' })).toBe('Wrote new content to <b>:file</b>');
  });
});
