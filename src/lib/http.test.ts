// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountEndpoints } from '../contract/account';
import { authEndpoints } from '../contract/auth';
import { fileEndpoints } from '../contract/files';
import { ApiError, call, ContractError, onUnauthorized, REQUEST_TIMEOUT_MS } from './http';

interface Sent {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

function stub(answer: () => Response) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname !== '/sanctum/csrf-cookie') {
        sent.push({ url, method: init?.method ?? 'GET', headers: (init?.headers ?? {}) as Record<string, string>, body: init?.body });
      }
      return Promise.resolve(answer());
    }),
  );
  return sent;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const UUID = 'abcd1234-5678-4abc-8def-0123456789ab';

beforeEach(() => {
  document.cookie = 'XSRF-TOKEN=tok%3D1; path=/';
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** A panel that never answers, but lets the request be aborted as a real fetch does. */
function stubSilent() {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
        }),
    ),
  );
}

describe('call', () => {
  it('fills the path parameters, sends the query and parses the answer with the response schema', async () => {
    const sent = stub(() => json(200, { object: 'list', data: [] }));
    const result = await call(fileEndpoints.list, { params: { server: UUID }, query: { directory: '/a b' } });
    expect(result).toEqual({ object: 'list', data: [] });
    expect(sent[0]?.method).toBe('GET');
    expect(sent[0]?.url.pathname).toBe(`/api/client/servers/${UUID}/files/list`);
    expect(sent[0]?.url.searchParams.get('directory')).toBe('/a b');
    // Safe requests carry no CSRF token.
    expect(sent[0]?.headers['X-XSRF-TOKEN']).toBeUndefined();
  });

  it('sends a JSON body with the method of the table and the CSRF token', async () => {
    const sent = stub(() => new Response(null, { status: 204 }));
    const result = await call(fileEndpoints.rename, { params: { server: UUID }, body: { root: '/', files: [{ from: 'a', to: 'b' }] } });
    expect(result).toBeUndefined();
    expect(sent[0]?.method).toBe('PUT');
    expect(sent[0]?.headers['Content-Type']).toBe('application/json');
    expect(sent[0]?.headers['X-XSRF-TOKEN']).toBe('tok=1');
    expect(JSON.parse(String(sent[0]?.body))).toEqual({ root: '/', files: [{ from: 'a', to: 'b' }] });
  });

  it('sends a raw body as it is and returns raw text', async () => {
    const sent = stub(() => new Response('motd=hi', { status: 200 }));
    await call(fileEndpoints.write, { params: { server: UUID }, query: { file: '/x.txt' }, body: 'hello' });
    expect(sent[0]?.body).toBe('hello');
    expect(sent[0]?.headers['Content-Type']).toBe('text/plain');
    expect(await call(fileEndpoints.contents, { params: { server: UUID }, query: { file: '/x.txt' } })).toBe('motd=hi');
  });

  it('throws a ContractError for an answer the schema refuses', async () => {
    stub(() => json(200, { object: 'user', attributes: { id: 'seven' } }));
    const error = await call(accountEndpoints.me, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).message).toContain('/api/client/account');
  });

  it('turns an error document into an ApiError with its field errors', async () => {
    stub(() => json(422, { errors: [{ code: 'ValidationException', status: '422', detail: 'Too long.', source: { field: 'user' } }] }));
    const error = await call(authEndpoints.login, { body: { user: 'x', password: 'y' }, quiet401: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).fieldErrors()).toEqual({ user: 'Too long.' });
  });

  it('keeps the wait a 429 names in Retry-After, and none when it names none', async () => {
    stub(
      () =>
        new Response(JSON.stringify({ errors: [{ code: 'TooManyRequestsHttpException', status: '429', detail: 'Slow down.' }] }), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '420' },
        }),
    );
    const error = await call(accountEndpoints.me, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).retryAfter).toBe('420');
    expect((error as ApiError).message).toBe('Slow down.');
    stub(() => json(400, { errors: [{ code: 'DisplayException', status: '400', detail: 'No.' }] }));
    expect(((await call(accountEndpoints.me, {}).catch((e: unknown) => e)) as ApiError).retryAfter).toBeNull();
  });

  it('broadcasts a 401 unless asked to keep quiet', async () => {
    stub(() => json(401, { errors: [{ code: 'AuthenticationException', status: '401', detail: 'Unauthenticated.' }] }));
    const heard = vi.fn();
    const off = onUnauthorized(heard);
    await expect(call(accountEndpoints.permissions, {})).rejects.toMatchObject({ status: 401 });
    expect(heard).toHaveBeenCalledTimes(1);
    await expect(call(accountEndpoints.me, { quiet401: true })).rejects.toMatchObject({ status: 401 });
    expect(heard).toHaveBeenCalledTimes(1);
    off();
  });

  it('fails visibly when the panel does not answer in time, saying so', async () => {
    vi.useFakeTimers();
    stubSilent();
    const pending = call(accountEndpoints.me, {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    const error = await pending;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'Timeout', message: expect.stringMatching(/did not answer within 60 seconds/) });
  });

  it('lets a long action ask for more time, and a cancel stays a cancel', async () => {
    vi.useFakeTimers();
    stubSilent();
    let settled = false;
    const long = call(accountEndpoints.me, { timeoutMs: 10 * REQUEST_TIMEOUT_MS }).catch((e: unknown) => {
      settled = true;
      return e;
    });
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(9 * REQUEST_TIMEOUT_MS);
    expect(await long).toMatchObject({ code: 'Timeout' });
    const controller = new AbortController();
    const cancelled = call(accountEndpoints.me, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(await cancelled).toMatchObject({ name: 'AbortError' });
  });

  it('says the panel could not be reached when the network fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(call(accountEndpoints.me, {})).rejects.toMatchObject({ code: 'NetworkError', status: 0 });
  });
});
