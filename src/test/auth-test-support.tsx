import { useLocation } from 'react-router';
import { vi } from 'vitest';
import { renderRoutes } from './render-routes';
import type { LoginUser } from '../contract/auth';
import { CheckpointPage } from '../features/auth/checkpoint-page';
import { SignInPage } from '../features/auth/sign-in-page';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { ResetPasswordPage } from '../features/auth/reset-password-page';

/* the sign-in and password-reset routes over a stubbed fetch, plus a stand-in for every other page. */

export const loginUser: LoginUser = {
  uuid: '5f0c2a8e-0a4b-4c1e-9d7a-3c2b1a0f9e8d',
  username: 'dana',
  email: 'dana@example.test',
  name_first: 'Dana',
  name_last: 'Demo',
  language: 'en',
  root_admin: false,
  use_totp: true,
  gravatar: true,
  created_at: '2024-01-01T00:00:00.000000Z',
  updated_at: '2024-01-01T00:00:00.000000Z',
};

export const account = {
  object: 'user',
  attributes: {
    id: 7,
    admin: false,
    username: 'dana',
    email: 'dana@example.test',
    first_name: 'Dana',
    last_name: 'Demo',
    language: 'en',
    use_totp: false,
  },
};

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function apiError(status: number, detail: string, field?: string): Response {
  return json(status, {
    errors: [
      { code: status === 422 ? 'ValidationException' : 'DisplayException', status: String(status), detail, ...(field ? { source: { field } } : {}) },
    ],
  });
}

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** Stubs fetch with `handler(method, path, body)`; every call is recorded in `calls`. */
export function stubFetch(handler: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const call = {
        method: init?.method ?? 'GET',
        path: url.pathname + url.search,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      return Promise.resolve(handler(call));
    }),
  );
  return calls;
}

function Elsewhere() {
  const location = useLocation();
  return (
    <p>
      Arrived at {location.pathname}
      {location.search}
    </p>
  );
}

/** The sign-in pages at `path`; any other path renders "Arrived at <url>". */
export function renderAuth(path: string) {
  document.cookie = 'XSRF-TOKEN=test-token; path=/';
  return renderRoutes(
    [
      { path: '/auth/login', element: <SignInPage /> },
      { path: '/auth/login/checkpoint', element: <CheckpointPage /> },
      { path: '/auth/password', element: <ForgotPasswordPage /> },
      { path: '/auth/password/reset/:token', element: <ResetPasswordPage /> },
      { path: '*', element: <Elsewhere /> },
    ],
    path,
  );
}
