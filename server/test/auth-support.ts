import type { LightMyRequestResponse as Response } from 'fastify';
import type { TestPanel } from './harness';
import { totpCode } from '../services/totp';

/**
 * A browser's cookie jar for the auth tests: keeps what responses set, drops what they expire,
 * and sends it back with the matching CSRF header, as the SPA does.
 */
export class CookieJar {
  private readonly values = new Map<string, string>();

  store(res: Response): this {
    for (const c of res.cookies) {
      const expired = c.value === '' || c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now());
      if (expired) this.values.delete(c.name);
      else this.values.set(c.name, c.value);
    }
    return this;
  }

  get(name: string): string | undefined {
    return this.values.get(name);
  }

  delete(name: string): void {
    this.values.delete(name);
  }

  headers(): Record<string, string> {
    const out: Record<string, string> = {};
    if (this.values.size) out.cookie = [...this.values].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = this.values.get('XSRF-TOKEN');
    if (xsrf) out['x-xsrf-token'] = xsrf;
    return out;
  }
}

export const PASSWORD = 'correct horse battery';

export function postJson(panel: TestPanel, url: string, payload: unknown, jar?: CookieJar, remoteAddress = '127.0.0.1') {
  return panel.app.inject({ method: 'POST', url, payload: payload as object, headers: jar?.headers() ?? {}, remoteAddress });
}

export async function login(panel: TestPanel, jar: CookieJar, user: string, password = PASSWORD, remoteAddress = '127.0.0.1') {
  const res = await postJson(panel, '/auth/login', { user, password }, jar, remoteAddress);
  jar.store(res);
  return res;
}

export async function checkpoint(panel: TestPanel, jar: CookieJar, body: Record<string, string>, remoteAddress = '127.0.0.1') {
  const res = await postJson(panel, '/auth/login/checkpoint', body, jar, remoteAddress);
  jar.store(res);
  return res;
}

/** The TOTP code `offsetSteps` 30-second steps away from the panel's clock. */
export function codeAt(panel: TestPanel, secret: string, offsetSteps = 0): string {
  return totpCode(secret, new Date(panel.clock.now().getTime() + offsetSteps * 30_000));
}

export async function logout(panel: TestPanel, jar: CookieJar) {
  const res = await panel.app.inject({ method: 'POST', url: '/auth/logout', headers: jar.headers() });
  jar.store(res);
  return res;
}

export const badCredentialsBody = {
  errors: [{ code: 'DisplayException', status: '400', detail: 'No account matching those credentials could be found.' }],
};
