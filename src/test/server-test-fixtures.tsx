import { t } from '../app/messages';
import type { ReactNode } from 'react';
import { type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { renderRoutes } from './render-routes';
import type * as z from 'zod/mini';
import type { Account } from '../contract/account';
import type { ActivityLog } from '../contract/activity';
import type { Server, serverWithMetaSchema } from '../contract/servers';
import { accountQueries } from '../features/account/api';
import { RequireAuth } from '../app/require-auth';
import { SERVER_PAGES } from '../app/server-routes';
import { ServerLayout } from '../features/servers/server-layout';
import { ServerOverviewPage } from '../features/servers/server-overview-page';
import { ActivityPage } from '../features/activity/activity-page';

/* Test-only helpers: a server resource, an account, and the server routes over a stubbed fetch. */

export const testAccount: Account = {
  id: 7,
  admin: false,
  username: 'dana',
  email: 'dana@example.test',
  first_name: 'Dana',
  last_name: 'Demo',
  language: 'en',
};

export function makeServer(overrides: Partial<Server> = {}): Server {
  return {
    server_owner: true,
    identifier: 'abcd1234',
    internal_id: 1,
    uuid: 'abcd1234-5678-4abc-8def-0123456789ab',
    name: 'Survival',
    node: 'Node One',
    is_node_under_maintenance: false,
    sftp_details: { ip: 'node1.example.test', port: 2022 },
    description: 'A cosy world',
    limits: { memory: 2048, swap: 0, disk: 10240, io: 500, cpu: 150, threads: null, oom_disabled: false },
    invocation: 'java -Xms128M -Xmx2048M -jar server.jar',
    docker_image: 'ghcr.io/pterodactyl/yolks:java_17',
    egg_features: ['eula'],
    feature_limits: { databases: 2, allocations: null, backups: 0 },
    status: null,
    is_suspended: false,
    is_installing: false,
    is_transferring: false,
    relationships: {
      allocations: {
        object: 'list',
        data: [
          { object: 'allocation', attributes: { id: 2, ip: '10.0.0.5', ip_alias: null, port: 25566, notes: 'Query port', is_default: false } },
          { object: 'allocation', attributes: { id: 1, ip: '10.0.0.5', ip_alias: 'play.example.test', port: 25565, notes: null, is_default: true } },
        ],
      },
      variables: { object: 'null_resource', attributes: null },
    },
    ...overrides,
  };
}

export function serverDocument(server: Server, meta: { is_server_owner: boolean; user_permissions: string[] }): z.infer<typeof serverWithMetaSchema> {
  return { object: 'server', attributes: server, meta };
}

export function makeEntry(overrides: Partial<ActivityLog> = {}): ActivityLog {
  return {
    id: 'e1',
    batch: null,
    event: 'server:power.start',
    is_api: false,
    ip: '',
    description: '',
    properties: {},
    has_additional_metadata: false,
    timestamp: new Date(Date.now() - 5 * 60_000).toISOString(),
    relationships: { actor: { object: 'user', attributes: { username: 'dana', email: 'dana@example.test' } } },
    ...overrides,
  };
}

/** Radix measures its poppers; jsdom has no ResizeObserver. Undone by `vi.unstubAllGlobals()`. */
export function stubResizeObserver(): void {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function apiError(status: number, detail: string): Response {
  return json(status, { errors: [{ code: 'Error', status: String(status), detail }] });
}

/** A request as a test reads it: method, path with query, parsed JSON body. */
export interface FetchCall {
  method: string;
  path: string;
  body: unknown;
}

type Handler = (url: URL, call: FetchCall) => Response | Promise<Response>;

/** Stubs fetch: `handler` answers every request; returns the mock to inspect calls. */
export function stubFetch(handler: Handler) {
  const mock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    return Promise.resolve(handler(url, { method: init?.method ?? 'GET', path: url.pathname + url.search, body }));
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

const PAGES: Record<string, () => ReactNode> = {
  overview: () => <ServerOverviewPage />,
  activity: () => <ActivityPage />,
};

/**
 * The app's server routes (same table and guard), signed in as `testAccount`, at `path`. `pages`
 * renders more pages for real (by path), beside the overview and activity; `account` is who is signed in.
 */
export function renderServerRoutes(path: string, pages: Record<string, () => ReactNode> = {}, account: Account = testAccount) {
  const render = { ...PAGES, ...pages };
  const children: RouteObject[] = SERVER_PAGES.map((page) => ({
    ...(page.path === '' ? { index: true } : { path: page.path }),
    // Guarded by ServerLayout, as in the app: the tests see the real guard.
    element: render[page.path]?.() ?? <p>{t(page.label)} page</p>,
  }));
  return renderRoutes(
    [
      {
        element: <RequireAuth />,
        children: [
          { path: '/server/:id', element: <ServerLayout />, children },
          { path: '/', element: <p>Server list</p> },
        ],
      },
    ],
    path,
    (client) => client.setQueryData(accountQueries.me().queryKey, account),
  );
}

/** GET /api/client/permissions, with the descriptions the hints show (a few groups are enough). */
export const catalogueDocument = {
  object: 'system_permissions',
  attributes: {
    permissions: {
      control: {
        description: 'Control the server.',
        keys: {
          console: 'Send commands to the server console.',
          start: 'Start the server.',
          stop: 'Stop the server.',
          restart: 'Restart the server.',
        },
      },
      file: {
        description: 'Work with the files of this server.',
        keys: { create: 'Create new files and folders, and upload files.', read: 'List the files of the server.', update: 'Rename and move files.' },
      },
      activity: { description: 'Read the activity log of this server.', keys: { read: 'Read the activity log.' } },
    },
  },
};

/** Answers the permission catalogue, and everything else with `handler`. */
export function withCatalogue(handler: Handler): Handler {
  return (url, call) => (url.pathname === '/api/client/permissions' ? json(200, catalogueDocument) : handler(url, call));
}
