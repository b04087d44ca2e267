import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { nodes } from '../db/repos';
import { isSealed, SecretBox } from '../lib/secret-box';
import { it } from '../test/fixtures';
import { openNodeToken, sealPlaintextNodeTokens } from './node-credentials';

it('stores a new node with a Wings token_id and its token sealed, never in the clear', async ({ panel }) => {
  await panel.server(await panel.user());
  const node = await nodes.first(panel.db);
  expect(node?.daemon_token_id).toMatch(/^[A-Za-z0-9]{16}$/);
  expect(isSealed(node?.daemon_token ?? '')).toBe(true);
  const token = panel.nodes.tokenOf(node ?? { daemon_token: '' });
  expect(token).toMatch(/^[A-Za-z0-9]{64}$/);
  expect(node?.daemon_token).not.toContain(token);
});

it('seals a token stored in the clear by an earlier version, keeping its value (tokens signed before still verify)', async ({ panel }) => {
  await panel.server(await panel.user());
  await panel.db
    .updateTable('nodes')
    .set({ daemon_token: 'a'.repeat(64) })
    .execute();
  const box = new SecretBox(randomBytes(32));
  expect(await sealPlaintextNodeTokens(panel.db, box)).toBe(1);
  const stored = (await nodes.first(panel.db))?.daemon_token ?? '';
  expect(isSealed(stored)).toBe(true);
  expect(openNodeToken(box, stored)).toBe('a'.repeat(64));
  // Sealed once: a second start changes nothing.
  expect(await sealPlaintextNodeTokens(panel.db, box)).toBe(0);
});

it('refuses a token sealed under another key rather than signing with something else', () => {
  const sealed = new SecretBox(randomBytes(32)).seal('x'.repeat(64));
  expect(() => openNodeToken(new SecretBox(randomBytes(32)), sealed)).toThrow(/cannot be opened/);
});
