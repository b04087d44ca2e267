import { describe, expect, it } from 'vitest';
import { backupLimitWords, ignoredPatterns, offsetWords, taskText, taskWords } from './task-words';

describe('taskWords', () => {
  it('says what each action does', () => {
    expect(taskText({ action: 'command', payload: 'say hi' })).toBe('Send command `say hi`');
    expect(taskWords({ action: 'command', payload: 'say hi' })).toEqual({ text: 'Send command', code: 'say hi' });
    expect(taskText({ action: 'power', payload: 'restart' })).toBe('Restart the server');
    expect(taskText({ action: 'power', payload: 'start' })).toBe('Start the server');
    expect(taskText({ action: 'power', payload: 'stop' })).toBe('Stop the server');
    expect(taskText({ action: 'power', payload: 'kill' })).toBe('Kill the server (stop it at once)');
    expect(taskText({ action: 'backup', payload: '' })).toBe('Create a backup');
    expect(taskText({ action: 'backup', payload: 'logs/*\n\n  cache/ \n' })).toBe('Create a backup ignoring 2 patterns');
    expect(taskText({ action: 'backup', payload: '*.log' })).toBe('Create a backup ignoring 1 pattern');
  });

  it('names what it does not know instead of hiding it', () => {
    expect(taskText({ action: 'power', payload: 'reboot' })).toBe('Send the power action “reboot”');
    expect(taskText({ action: 'delete_files', payload: 'x' })).toBe('Unknown action “delete_files”');
  });

  it('reads ignored files one pattern per line', () => {
    expect(ignoredPatterns('a\r\nb\n\n')).toEqual(['a', 'b']);
  });
});

describe('offsetWords', () => {
  it('counts the first task from the start of the run and the others from the task before', () => {
    expect(offsetWords(0, true)).toBe('As soon as the run starts');
    expect(offsetWords(5, true)).toBe('5 s after the run starts');
    expect(offsetWords(0, false)).toBe('Right after the previous task');
    expect(offsetWords(60, false)).toBe('60 s after the previous task');
  });
});

describe('backupLimitWords', () => {
  it("says what a backup task does at the server's limit, and that it cannot be saved without one", () => {
    expect(backupLimitWords(3)).toBe('This server may keep 3 backups; at the limit the oldest unlocked one is removed first.');
    expect(backupLimitWords(1)).toBe('This server may keep 1 backup; at the limit the oldest unlocked one is removed first.');
    expect(backupLimitWords(0)).toMatch(/^Backups are disabled for this server/);
    expect(backupLimitWords(null)).toMatch(/^Backups are disabled for this server/);
  });
});
