import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { addSshKey } from '../services/ssh-keys';
import { test as base } from '../test/fixtures';
import { startSftp } from '../test/sftp-support';

/* A real third-party client: OpenSSH's `sftp` in batch mode, signed in with a key of the account. */

const run = promisify(execFile);

const test = base.extend('sftp', async ({ files }, { onCleanup }) => startSftp(files.panel, onCleanup));

test('OpenSSH sftp puts, lists, gets and removes files with an account key', async ({ files, sftp, tempDir }) => {
  const key = path.join(tempDir, 'id_ed25519');
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
  await addSshKey(files.panel.db, files.owner.id, 'openssh', fs.readFileSync(`${key}.pub`, 'utf8'), files.panel.clock.now());
  files.put('remote.txt', 'from the server');
  fs.writeFileSync(path.join(tempDir, 'local.txt'), 'from the client');
  const batch = path.join(tempDir, 'batch');
  fs.writeFileSync(
    batch,
    [
      `put ${path.join(tempDir, 'local.txt')} /uploaded.txt`,
      'ls -1 /',
      `get /remote.txt ${path.join(tempDir, 'fetched.txt')}`,
      'rm /remote.txt',
      '',
    ].join('\n'),
  );
  const { stdout } = await run('sftp', [
    '-b',
    batch,
    '-i',
    key,
    '-P',
    String(sftp.port),
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'BatchMode=yes',
    `${files.owner.username}.${files.s1.uuid.slice(0, 8)}@127.0.0.1`,
  ]);
  expect(stdout).toContain('remote.txt');
  expect(files.read('uploaded.txt')).toBe('from the client');
  expect(fs.readFileSync(path.join(tempDir, 'fetched.txt'), 'utf8')).toBe('from the server');
  expect(files.exists('remote.txt')).toBe(false);
});
