import type * as z from 'zod/mini';
import {
  endpointPath,
  type EndpointBodyInput,
  type EndpointDefinition,
  type EndpointQueryInput,
  type EndpointResult,
  type PathParams,
} from '../contract/endpoint';
import { errorDocumentSchema, errorField, type ErrorEntry } from '../contract/errors';
import { t } from './messages';

/**
 * The one HTTP client. Every request is described by a row of a contract endpoint table
 * (`call(fileEndpoints.list, …)`), so paths and schemas are written only in the contract; every
 * JSON response is parsed with its schema before anything renders it; every failure becomes an
 * ApiError carrying the error document.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorEntry[],
    /** A 429's `Retry-After` as sent (seconds, or an HTTP date); null when not said. */
    readonly retryAfter: string | null = null,
  ) {
    super(errors[0]?.detail ?? `Request failed (${status}).`);
    this.name = 'ApiError';
  }

  get code(): string {
    return this.errors[0]?.code ?? 'UnknownError';
  }

  /** Messages per request field (`source.field`), first message wins. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this.errors) {
      const field = errorField(e);
      if (field && !(field in out)) out[field] = e.detail;
    }
    return out;
  }
}

/** A response that does not match the contract: shown to the user, never rendered as blanks. */
export class ContractError extends ApiError {
  constructor(url: string, issues: z.core.$ZodIssue[]) {
    const where = issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    super(0, [{ code: 'ContractMismatch', status: '0', detail: t('lib.http.contract', { url, where }) }]);
  }
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Subscribes to 401 answers from the API (the app sends the user to sign-in). */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export function readCookie(name: string): string | undefined {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

/**
 * Whether this browser may hold a session. Signing in sets the XSRF-TOKEN cookie (a real panel
 * sets it on every page), so a browser without one has never signed in here, or has signed out:
 * asking the panel who it is would only log a failed request in the console.
 */
export function maybeSignedIn(): boolean {
  return readCookie('XSRF-TOKEN') !== undefined;
}

/** The 401 the panel answers a request without a session. */
export const unauthenticatedError = () => new ApiError(401, [{ code: 'AuthenticationException', status: '401', detail: 'Unauthenticated.' }]);

const SAFE = new Set(['GET', 'HEAD']);

async function ensureCsrfCookie(): Promise<void> {
  if (readCookie('XSRF-TOKEN')) return;
  await fetch('/sanctum/csrf-cookie', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
}

export type Query = Record<string, string | number | boolean | undefined | null>;

/** Appends `query` to `path`, leaving out empty values (`''`, null, undefined). */
export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

type HasParams<E extends EndpointDefinition> = [keyof PathParams<E['path']>] extends [never] ? false : true;

/**
 * What a call of `E` takes: the path's `:params` when it has some, the query and body when the
 * endpoint declares them (the schemas' input types), and the usual transport options.
 */
export type CallOptions<E extends EndpointDefinition> = {
  signal?: AbortSignal;
  /** How long the whole exchange may take (default REQUEST_TIMEOUT_MS); past it, a Timeout error. */
  timeoutMs?: number;
  /** Do not broadcast a 401 (sign-in requests answer 4xx by design). */
  quiet401?: boolean;
} & (HasParams<E> extends true ? { params: PathParams<E['path']> } : { params?: undefined }) &
  (E['query'] extends z.ZodMiniType ? { query?: EndpointQueryInput<E> } : { query?: undefined }) &
  (E['body'] extends z.ZodMiniType | 'raw' ? { body: EndpointBodyInput<E> } : { body?: undefined });

/**
 * Calls one endpoint of the contract and returns what it answers: the parsed JSON document, the
 * text of a `'text'` response, nothing for `'empty'`.
 */
export async function call<E extends EndpointDefinition>(endpoint: E, options: CallOptions<E>): Promise<EndpointResult<E>> {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const deadline = startDeadline(options.signal, timeoutMs);
  try {
    return await exchange(endpoint, { ...options, signal: deadline.signal });
  } catch (error) {
    if (deadline.expired()) throw timeoutError(timeoutMs);
    throw error;
  } finally {
    deadline.clear();
  }
}

/**
 * How long a request may take, answer included, before it fails visibly instead of spinning for
 * ever: far above what any quick action needs. Long actions (compress, a large save) pass more;
 * uploads do not come through here and have their own idle limit.
 */
export const REQUEST_TIMEOUT_MS = 60_000;

export function timeoutError(ms: number): ApiError {
  const seconds = Math.round(ms / 1000);
  return new ApiError(0, [{ code: 'Timeout', status: '0', detail: t('lib.http.timeout', { seconds }) }]);
}

/** An AbortSignal that fires when `outer` does or when `ms` have passed, whichever comes first. */
function startDeadline(outer: AbortSignal | undefined, ms: number) {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, ms);
  const forward = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    clear: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    },
  };
}

async function exchange<E extends EndpointDefinition>(endpoint: E, options: CallOptions<E>): Promise<EndpointResult<E>> {
  const path = endpointPath(endpoint.path, (options.params ?? {}) as PathParams<E['path']>);
  const res = await send(endpoint.method, withQuery(path, options.query as Query | undefined), options);
  const response = endpoint.response;
  if (response === 'empty') return undefined as EndpointResult<E>;
  if (response === 'text') return (await res.text()) as EndpointResult<E>;
  let json: unknown;
  try {
    json = await res.json();
  } catch (error) {
    // Cancelled (or timed out) while the answer was arriving: not a bad answer.
    if (options.signal?.aborted) throw error;
    throw new ContractError(path, [{ code: 'custom', path: [], message: 'not JSON', input: undefined }]);
  }
  const parsed = response.safeParse(json);
  if (!parsed.success) throw new ContractError(path, parsed.error.issues);
  return parsed.data as EndpointResult<E>;
}

interface SendOptions {
  body?: unknown;
  signal?: AbortSignal;
  quiet401?: boolean;
}

async function send(method: string, url: string, opts: SendOptions): Promise<Response> {
  if (!SAFE.has(method)) await ensureCsrfCookie();
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  const xsrf = readCookie('XSRF-TOKEN');
  if (!SAFE.has(method) && xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  let body: BodyInit | undefined;
  if (typeof opts.body === 'string' || opts.body instanceof Blob) {
    // A raw body (files/write): the bytes are the file, sent as they are.
    body = opts.body;
    headers['Content-Type'] = 'text/plain';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, credentials: 'same-origin', signal: opts.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, [{ code: 'NetworkError', status: '0', detail: t('lib.http.network') }]);
  }
  if (!res.ok) throw await toApiError(res, opts.quiet401 ?? false);
  return res;
}

async function toApiError(res: Response, quiet401: boolean): Promise<ApiError> {
  if (res.status === 401 && !quiet401) for (const l of unauthorizedListeners) l();
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    json = undefined;
  }
  const doc = errorDocumentSchema.safeParse(json);
  if (doc.success) return new ApiError(res.status, doc.data.errors, res.headers.get('Retry-After'));
  return new ApiError(res.status, [
    { code: 'HttpError', status: String(res.status), detail: t('lib.http.status', { status: res.status, statusText: res.statusText }) },
  ]);
}
