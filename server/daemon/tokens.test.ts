import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { fileTokenSchema, SingleUseTokens, tokenKey, uploadTokenSchema, verifyToken } from './tokens';

const KEY = 'node-key';
const NOW = new Date('2026-03-01T12:00:00Z');
const SERVER = '8f1c6a32-6f0f-4f57-9d8e-2b1b0c5a7d10';

async function sign(claims: Record<string, unknown>, options: { key?: string; expiresIn?: number; alg?: 'HS256' | 'HS512' } = {}) {
  const iat = Math.floor(NOW.getTime() / 1000);
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256' }).setIssuedAt(iat);
  if (options.expiresIn !== undefined) jwt = jwt.setExpirationTime(iat + options.expiresIn);
  return jwt.sign(tokenKey(options.key ?? KEY));
}

describe('node tokens', () => {
  const download = { scope: 'file-download', server_uuid: SERVER, unique_id: 'u1', jti: 'user-on-server', file_path: '/server.properties' };

  it('accept a token of the right shape, key and lifetime', async () => {
    expect(await verifyToken(await sign(download, { expiresIn: 900 }), KEY, fileTokenSchema, NOW)).toMatchObject(download);
  });

  it('refuse a token without an expiry, an expired one, another key, another algorithm, another shape, and garbage', async () => {
    expect(await verifyToken(await sign(download), KEY, fileTokenSchema, NOW)).toBeNull();
    expect(await verifyToken(await sign(download, { expiresIn: 900 }), KEY, fileTokenSchema, new Date(NOW.getTime() + 901_000))).toBeNull();
    expect(await verifyToken(await sign(download, { expiresIn: 900, key: 'other' }), KEY, fileTokenSchema, NOW)).toBeNull();
    expect(await verifyToken(await sign(download, { expiresIn: 900, alg: 'HS512' }), KEY, fileTokenSchema, NOW)).toBeNull();
    // A download token is no upload token, even one that names a user.
    expect(await verifyToken(await sign({ ...download, user_uuid: 'u' }, { expiresIn: 900 }), KEY, uploadTokenSchema, NOW)).toBeNull();
    expect(await verifyToken('not.a.token', KEY, fileTokenSchema, NOW)).toBeNull();
    expect(await verifyToken('', KEY, fileTokenSchema, NOW)).toBeNull();
  });

  it('work once each', () => {
    const store = new SingleUseTokens(60_000);
    expect(store.claim('a', NOW)).toBe(true);
    expect(store.claim('a', NOW)).toBe(false);
    expect(store.claim('b', NOW)).toBe(true);
    expect(store.claim('a', new Date(NOW.getTime() + 30_000))).toBe(false);
  });
});
