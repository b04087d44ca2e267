// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { clearPendingLogin, readPendingLogin, savePendingLogin } from './pending-login';

beforeEach(() => sessionStorage.clear());

describe('pending login', () => {
  it('is kept for five minutes', () => {
    savePendingLogin('tok', '/server/a', 1_000);
    expect(readPendingLogin(1_000 + 299_999)).toEqual({ token: 'tok', expiresAt: 301_000, redirect: '/server/a' });
    expect(readPendingLogin(301_000)).toBeNull();
    // and an expired one is dropped
    expect(sessionStorage.length).toBe(0);
  });

  it('ignores what it did not write', () => {
    sessionStorage.setItem('aerie.pending-login', '{not json');
    expect(readPendingLogin()).toBeNull();
    sessionStorage.setItem('aerie.pending-login', JSON.stringify({ token: 5, expiresAt: 'soon' }));
    expect(readPendingLogin()).toBeNull();
  });

  it('is gone once cleared', () => {
    savePendingLogin('tok', null);
    clearPendingLogin();
    expect(readPendingLogin()).toBeNull();
  });
});
