import { randomBytes } from 'node:crypto';
import { test as base, expect, type Page } from '@playwright/test';
import { runPanelCli } from './support/cli';
import { xsrfHeaders } from './support/hostile';
import { serverFiles, type ServerFiles } from './support/server-files';
import { signInThroughApi } from './support/sign-in';

/*
 * Fixtures for every spec: `import { test, expect } from './fixtures'`.
 * Data is seeded through the admin CLI of the panel Playwright started, and files through its
 * client API; every name is unique per test, so tests run in parallel against one panel without
 * meeting.
 */

export interface E2eUser {
  id: number;
  uuid: string;
  email: string;
  username: string;
  password: string;
  admin: boolean;
  /** Present when made with `totp: true`. */
  secret?: string;
  recovery_tokens?: string[];
}

export interface E2eServer {
  id: number;
  uuid: string;
  identifier: string;
  name: string;
  owner: string;
  allocation: string;
  status: string | null;
}

export interface Fixtures {
  /** Runs `panel <args>` on the test panel's data dir and returns its JSON result. */
  cli: <T = Record<string, unknown>>(args: string[]) => T;
  /** A fresh user (unique email/username, random password), optionally root admin and/or with TOTP on. */
  makeUser: (options?: { admin?: boolean; totp?: boolean }) => E2eUser;
  /** A fresh server owned by the user with that email. */
  makeServer: (ownerEmail: string, name?: string) => E2eServer;
  /** A fresh user added to `server` as a subuser with `permissions` (comma-separated, as the CLI takes them). */
  makeSubuser: (server: Pick<E2eServer, 'identifier'>, permissions: string) => E2eUser;
  /** Signs `user` in without the UI (answers the 2FA checkpoint when the user has a secret). */
  signIn: (page: Page, user: Pick<E2eUser, 'email' | 'password' | 'secret'>) => Promise<void>;
  /**
   * The server's files through the client API: as the user signed in on `page` when given (no CLI
   * call), else with an API key of the server's owner, made with `apikey:create` on first use.
   */
  filesOf: (server: Pick<E2eServer, 'uuid' | 'owner'>, page?: Page) => ServerFiles;
}

let counter = 0;

export const test = base.extend<Fixtures>({
  /*
   * Each test is its own client address. The panel limits login attempts per address (10 a
   * minute), and every browser here is 127.0.0.1; the e2e panel runs with TRUST_PROXY=true, so
   * this header gives each test its own bucket while a throttle test still sees one address.
   */
  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring pattern
  extraHTTPHeaders: async ({}, use, testInfo) => {
    counter += 1;
    const n = counter % 65_536;
    await use({ 'X-Forwarded-For': `10.${64 + (testInfo.workerIndex % 64)}.${n >> 8}.${n & 255}` });
  },

  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring pattern
  cli: async ({}, use) => {
    await use(runPanelCli);
  },

  makeUser: async ({ cli }, use, testInfo) => {
    await use(({ admin = false, totp = false } = {}) => {
      counter += 1;
      const tag = `w${testInfo.workerIndex}n${counter}${randomBytes(3).toString('hex')}`;
      const password = `pw-${randomBytes(9).toString('base64url')}`;
      const args = [
        'user:create',
        '--email',
        `${tag}@e2e.test`,
        '--username',
        `u_${tag}`,
        '--password',
        password,
        '--first-name',
        'E2E',
        '--last-name',
        tag,
      ];
      if (admin) args.push('--admin');
      const created = cli<Omit<E2eUser, 'password'>>(args);
      const user: E2eUser = { ...created, password };
      if (totp) Object.assign(user, cli<{ secret: string; recovery_tokens: string[] }>(['user:2fa', '--email', user.email]));
      return user;
    });
  },

  makeServer: async ({ cli }, use, testInfo) => {
    await use((ownerEmail, name) => {
      counter += 1;
      return cli<E2eServer>(['server:create', '--owner', ownerEmail, '--name', name ?? `Server w${testInfo.workerIndex}n${counter}`]);
    });
  },

  makeSubuser: async ({ cli, makeUser }, use) => {
    await use((server, permissions) => {
      const sub = makeUser();
      cli(['subuser:add', '--server', server.identifier, '--email', sub.email, '--permissions', permissions]);
      return sub;
    });
  },

  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring pattern
  signIn: async ({}, use) => {
    await use(signInThroughApi);
  },

  filesOf: async ({ request, cli }, use) => {
    const keys = new Map<string, string>();
    const keyOf = (email: string) => {
      const known = keys.get(email);
      if (known) return known;
      const { token } = cli<{ token: string }>(['apikey:create', '--email', email, '--description', 'e2e seeding']);
      keys.set(email, token);
      return token;
    };
    await use((server, page) =>
      page
        ? serverFiles(page.request, server.uuid, () => xsrfHeaders(page))
        : serverFiles(request, server.uuid, async () => ({ Authorization: `Bearer ${keyOf(server.owner)}` })),
    );
  },
});

export { expect };
