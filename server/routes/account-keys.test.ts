import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sshpk from 'sshpk';
import { describe, expect } from 'vitest';
import { apiKeyCreatedSchema, apiKeyListSchema, MAX_API_KEYS, sshKeyListSchema, sshKeySchema } from '../../src/contract';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

function send(
  panel: TestPanel,
  headers: Record<string, string>,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
  remoteAddress = '127.0.0.1',
) {
  return panel.app.inject({ method, url: `/api/client/account${url}`, headers, remoteAddress, ...(payload ? { payload } : {}) });
}

/** An OpenSSH public key line made by ssh-keygen. */
function sshKeygen(dir: string, type: string, bits?: number): string {
  const file = path.join(dir, `${type}-${bits ?? 0}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', 'test@example', '-f', file]);
  return fs.readFileSync(`${file}.pub`, 'utf8').trim();
}

/** An OpenSSH public key line from a key node's crypto made (for types ssh-keygen no longer makes). */
function nodeKey(type: 'rsa' | 'dsa', bits: number): string {
  const { publicKey } =
    type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: bits }) : generateKeyPairSync('dsa', { modulusLength: bits, divisorLength: 160 });
  return sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh');
}

function fingerprintOf(line: string): string {
  return (
    execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', '-'], { input: line })
      .toString()
      .split(' ')[1]
      ?.replace(/^SHA256:/, '') ?? ''
  );
}

describe('account API keys', () => {
  it('creates a key whose secret is shown once and works, lists and deletes it', async ({ panel }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    const created = await send(panel, headers, 'POST', '/api-keys', { description: 'deploy bot', allowed_ips: [] });
    expect(created.statusCode).toBe(200);
    const { attributes, meta } = apiKeyCreatedSchema.parse(created.json());
    expect(meta.secret_token).toMatch(new RegExp(`^ptlc_${attributes.identifier}[A-Za-z0-9]{32}$`));
    expect(attributes).toMatchObject({ description: 'deploy bot', allowed_ips: [], last_used_at: null });

    // Stored hashed: the row holds neither the token nor its secret part.
    const row = await panel.db.selectFrom('api_keys').selectAll().where('identifier', '=', attributes.identifier).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(meta.secret_token.slice(-32));

    const bearer = { authorization: `Bearer ${meta.secret_token}` };
    expect((await panel.app.inject({ url: '/api/client/account', headers: bearer })).statusCode).toBe(200);
    const listed = apiKeyListSchema.parse((await send(panel, headers, 'GET', '/api-keys')).json());
    expect(JSON.stringify(listed)).not.toContain(meta.secret_token);
    const mine = listed.data.find((k) => k.attributes.identifier === attributes.identifier);
    expect(mine?.attributes.last_used_at).not.toBeNull();

    expect((await send(panel, headers, 'DELETE', `/api-keys/${attributes.identifier}`)).statusCode).toBe(204);
    expect((await panel.app.inject({ url: '/api/client/account', headers: bearer })).statusCode).toBe(401);
    expect((await send(panel, headers, 'DELETE', `/api-keys/${attributes.identifier}`)).statusCode).toBe(404);

    const log = (await send(panel, headers, 'GET', '/activity'))
      .json()
      .data.map((d: { attributes: { event: string; properties: object } }) => d.attributes);
    expect(log).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ event: 'user:api-key.create', properties: { identifier: attributes.identifier } }),
        expect.objectContaining({ event: 'user:api-key.delete', properties: { identifier: attributes.identifier } }),
      ]),
    );
  });

  // attacks T-SESS-3
  it('enforces allowed_ips on every request made with the key', async ({ panel }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    const created = await send(panel, headers, 'POST', '/api-keys', { description: 'office', allowed_ips: ['10.1.0.0/16', '2001:db8::1'] });
    expect(created.statusCode).toBe(200);
    const bearer = { authorization: `Bearer ${apiKeyCreatedSchema.parse(created.json()).meta.secret_token}` };
    expect((await send(panel, bearer, 'GET', '', undefined, '10.1.2.3')).statusCode).toBe(200);
    expect((await send(panel, bearer, 'GET', '', undefined, '2001:db8::1')).statusCode).toBe(200);
    const refused = await send(panel, bearer, 'GET', '', undefined, '10.2.0.1');
    expect(refused.statusCode).toBe(403);
  });

  // attacks T-SESS-3
  it('refuses bad ranges and a missing description with 422, and more than 25 keys with 400', async ({ panel }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    const bad = await send(panel, headers, 'POST', '/api-keys', { description: 'x', allowed_ips: ['10.0.0.1', '10.0.0.0/33'] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].source.field).toBe('allowed_ips.1');
    expect((await send(panel, headers, 'POST', '/api-keys', { description: 'x', allowed_ips: ['example.com'] })).statusCode).toBe(422);
    const noDescription = await send(panel, headers, 'POST', '/api-keys', {});
    expect(noDescription.statusCode).toBe(422);
    expect(noDescription.json().errors[0].source.field).toBe('description');
    for (let i = 0; i < MAX_API_KEYS; i += 1)
      expect((await send(panel, headers, 'POST', '/api-keys', { description: `k${i}` })).statusCode).toBe(200);
    const over = await send(panel, headers, 'POST', '/api-keys', { description: 'one too many' });
    expect(over.statusCode).toBe(400);
    expect(over.json().errors[0].detail).toBe('You have reached the account limit for number of API keys.');
  });

  it('never lists or deletes another user’s keys', async ({ panel }) => {
    const ann = await panel.user();
    const bob = await panel.user();
    const annHeaders = await panel.sessionHeaders(ann);
    const bobHeaders = await panel.sessionHeaders(bob);
    const created = apiKeyCreatedSchema.parse((await send(panel, bobHeaders, 'POST', '/api-keys', { description: 'bob' })).json());
    const listed = apiKeyListSchema.parse((await send(panel, annHeaders, 'GET', '/api-keys')).json());
    expect(listed.data).toEqual([]);
    expect((await send(panel, annHeaders, 'DELETE', `/api-keys/${created.attributes.identifier}`)).statusCode).toBe(404);
    const bearer = { authorization: `Bearer ${created.meta.secret_token}` };
    expect((await panel.app.inject({ url: '/api/client/account', headers: bearer })).statusCode).toBe(200);
  });
});

describe('account SSH keys', () => {
  it('accepts ed25519, ecdsa, rsa-2048 (the least allowed) and rsa-4096 keys with their SHA-256 fingerprints', async ({ panel, tempDir }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    const lines = [sshKeygen(tempDir, 'ed25519'), sshKeygen(tempDir, 'ecdsa', 256), nodeKey('rsa', 2048), nodeKey('rsa', 4096)];
    for (const [i, line] of lines.entries()) {
      const res = await send(panel, headers, 'POST', '/ssh-keys', { name: `key ${i}`, public_key: line });
      expect(res.statusCode).toBe(200);
      const { attributes } = sshKeySchema.parse(res.json());
      expect(attributes.fingerprint).toBe(fingerprintOf(line));
      expect(attributes.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    }
    const listed = sshKeyListSchema.parse((await send(panel, headers, 'GET', '/ssh-keys')).json());
    expect(listed.data.map((k) => k.attributes.name)).toEqual(['key 0', 'key 1', 'key 2', 'key 3']);
    const log = (await send(panel, headers, 'GET', '/activity')).json().data.map((d: { attributes: { event: string } }) => d.attributes.event);
    expect(log.filter((e: string) => e === 'user:ssh-key.create')).toHaveLength(4);
  });

  it('refuses rsa-1024, dsa, malformed, private and duplicate keys on public_key', async ({ panel, tempDir }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    const ed = sshKeygen(tempDir, 'ed25519');
    const { privateKey } = generateKeyPairSync('ed25519');
    const cases: [string, string][] = [
      [nodeKey('rsa', 1024), 'RSA keys must be at least 2048 bytes in length.'],
      [nodeKey('dsa', 1024), 'DSA keys are not supported.'],
      ['ssh-ed25519 AAAAnotakey', 'The public key provided is not valid.'],
      [privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'The public key provided is not valid.'],
    ];
    for (const [key, detail] of cases) {
      const res = await send(panel, headers, 'POST', '/ssh-keys', { name: 'k', public_key: key });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ detail, source: { field: 'public_key' } });
    }
    expect((await send(panel, headers, 'POST', '/ssh-keys', { name: 'first', public_key: ed })).statusCode).toBe(200);
    const dup = await send(panel, headers, 'POST', '/ssh-keys', { name: 'again', public_key: ed });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors[0].detail).toBe('The public key provided already exists on your account.');
    const noName = await send(panel, headers, 'POST', '/ssh-keys', { public_key: ed });
    expect(noName.statusCode).toBe(422);
    expect(noName.json().errors[0].source.field).toBe('name');
    expect(sshKeyListSchema.parse((await send(panel, headers, 'GET', '/ssh-keys')).json()).data).toHaveLength(1);
  });

  it('removes by fingerprint: 422 without one, a no-op for unknown or another user’s keys', async ({ panel, tempDir }) => {
    const ann = await panel.user();
    const bob = await panel.user();
    const annHeaders = await panel.sessionHeaders(ann);
    const bobHeaders = await panel.sessionHeaders(bob);
    const line = sshKeygen(tempDir, 'ed25519');
    const fingerprint = fingerprintOf(line);
    expect((await send(panel, bobHeaders, 'POST', '/ssh-keys', { name: 'bob', public_key: line })).statusCode).toBe(200);
    // The same key may be on two accounts; each sees only its own.
    expect((await send(panel, annHeaders, 'POST', '/ssh-keys', { name: 'ann', public_key: line })).statusCode).toBe(200);

    const missing = await send(panel, annHeaders, 'POST', '/ssh-keys/remove', {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors[0].source.field).toBe('fingerprint');
    expect((await send(panel, annHeaders, 'POST', '/ssh-keys/remove', { fingerprint: 'unknown' })).statusCode).toBe(204);

    expect((await send(panel, annHeaders, 'POST', '/ssh-keys/remove', { fingerprint })).statusCode).toBe(204);
    expect(sshKeyListSchema.parse((await send(panel, annHeaders, 'GET', '/ssh-keys')).json()).data).toEqual([]);
    const bobs = sshKeyListSchema.parse((await send(panel, bobHeaders, 'GET', '/ssh-keys')).json()).data;
    expect(bobs.map((k) => k.attributes.name)).toEqual(['bob']);

    const annLog = (await send(panel, annHeaders, 'GET', '/activity'))
      .json()
      .data.map((d: { attributes: { event: string; properties: object } }) => d.attributes);
    expect(annLog.filter((e: { event: string }) => e.event === 'user:ssh-key.delete')).toEqual([
      expect.objectContaining({ properties: { fingerprint } }),
    ]);
    const bobLog = (await send(panel, bobHeaders, 'GET', '/activity')).json().data.map((d: { attributes: { event: string } }) => d.attributes.event);
    expect(bobLog).not.toContain('user:ssh-key.delete');
  });
});
