import { describe, expect } from 'vitest';
import { test as base } from '../test/fixtures';
import { connect, ops, startSftp } from '../test/sftp-support';

const PASSWORD = 'correct horse battery';

const test = base.extend('sftp', async ({ files }, { onCleanup }) => startSftp(files.panel, onCleanup));

const ident = (server: { uuid: string }) => server.uuid.slice(0, 8);

describe('SFTP sign-in', () => {
  test('the owner signs in with the panel password and lists the volume', async ({ files, sftp, onTestFinished }) => {
    files.put('hello.txt', 'hi');
    const { sftp: s } = await connect(sftp.port, { username: `${files.owner.username}.${ident(files.s1)}`, password: PASSWORD }, onTestFinished);
    expect(await ops(s).list('/')).toContain('hello.txt');
  });
});
