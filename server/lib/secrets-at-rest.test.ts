import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { databaseFile, migrateToLatest, openDatabase } from '../db';
import { sealPlaintextTotpSecrets } from '../services/totp';
import { checkpoint, codeAt, CookieJar, login } from '../test/auth-support';
import { it } from '../test/fixtures';
import { prepareDataDir } from './data-dir';
import { loadSecretBox, SECRET_KEY_FILE } from './secret-box';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('TOTP secrets at rest', () => {
  it('are stored sealed, with a key kept in a 0600 file of the data dir', async ({ panel }) => {
    const user = await panel.user({ username: 'alice' });
    const { secret } = await panel.enableTotp(user);
    const row = await panel.db.selectFrom('users').select('totp_secret').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.totp_secret).not.toContain(secret);
    expect(loadSecretBox(panel.dataDir).open(row.totp_secret ?? '')).toBe(secret);
    expect(modeOf(path.join(panel.dataDir, SECRET_KEY_FILE))).toBe(0o600);
  });

  it('stored in the clear by an earlier version are sealed at start and keep working', async ({ panel }) => {
    const user = await panel.user({ username: 'alice' });
    const { secret } = await panel.enableTotp(user);
    await panel.db.updateTable('users').set({ totp_secret: secret }).where('id', '=', user.id).execute();

    expect(await sealPlaintextTotpSecrets(panel.db, loadSecretBox(panel.dataDir))).toBe(1);
    expect(await sealPlaintextTotpSecrets(panel.db, loadSecretBox(panel.dataDir))).toBe(0);
    const row = await panel.db.selectFrom('users').select('totp_secret').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.totp_secret).not.toContain(secret);

    const jar = new CookieJar();
    const token: string = (await login(panel, jar, 'alice')).json().data.confirmation_token;
    expect((await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret) })).statusCode).toBe(200);
  });

  it('cannot be opened with another data dir key, nor after being altered', ({ tempDir }) => {
    const sealed = loadSecretBox(path.join(tempDir)).seal('JBSWY3DPEHPK3PXP');
    fs.mkdirSync(path.join(tempDir, 'other'));
    expect(loadSecretBox(path.join(tempDir, 'other')).open(sealed)).toBeNull();
    // One bit of the sealed bytes flipped (the last one: the ciphertext).
    const [prefix, encoded] = [sealed.slice(0, sealed.lastIndexOf(':') + 1), sealed.slice(sealed.lastIndexOf(':') + 1)];
    const bytes = Buffer.from(encoded, 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    const flipped = prefix + bytes.toString('base64url');
    expect(flipped).not.toBe(sealed);
    expect(loadSecretBox(tempDir).open(flipped)).toBeNull();
    expect(loadSecretBox(tempDir).open(sealed)).toBe('JBSWY3DPEHPK3PXP');
  });
});

describe('the data dir', () => {
  it('is created 0700 with the database and its journal files 0600', async ({ tempDir }) => {
    const dataDir = path.join(tempDir, 'data');
    prepareDataDir(dataDir, databaseFile(dataDir));
    const db = openDatabase(databaseFile(dataDir));
    try {
      await migrateToLatest(db);
      expect(modeOf(dataDir)).toBe(0o700);
      for (const file of ['panel.sqlite', 'panel.sqlite-wal', 'panel.sqlite-shm']) expect(modeOf(path.join(dataDir, file))).toBe(0o600);
    } finally {
      await db.destroy();
    }
  });

  it('is tightened when an earlier version left it open', ({ tempDir }) => {
    fs.chmodSync(tempDir, 0o755);
    fs.writeFileSync(databaseFile(tempDir), '', { mode: 0o644 });
    prepareDataDir(tempDir, databaseFile(tempDir));
    expect(modeOf(tempDir)).toBe(0o700);
    expect(modeOf(databaseFile(tempDir))).toBe(0o600);
  });

  it.runIf(process.getuid?.() === 0)(
    "is left open to the servers' group (root:988 0710), so a CLI started beside a root panel never closes it to servers starting",
    ({ tempDir }) => {
      fs.chownSync(tempDir, 0, 988);
      fs.chmodSync(tempDir, 0o710);
      prepareDataDir(tempDir, databaseFile(tempDir));
      const dir = fs.statSync(tempDir);
      expect([dir.uid, dir.gid, dir.mode & 0o777]).toEqual([0, 988, 0o710]);
      // Opened to root's own group, or wider, it is still tightened.
      fs.chownSync(tempDir, 0, 0);
      prepareDataDir(tempDir, databaseFile(tempDir));
      expect(modeOf(tempDir)).toBe(0o700);
    },
  );
});

describe('server volumes', () => {
  it('are readable by the panel user only', async ({ panel }) => {
    const server = await panel.server(await panel.user());
    expect(modeOf(path.join(panel.dataDir, 'volumes', server.uuid)) & 0o077).toBe(0);
  });
});
