import type * as z from 'zod/mini';
import { errorDocumentSchema, errorField, type ErrorEntry } from '../contract';

/**
 * The one HTTP client. Every JSON response is parsed with its contract schema before anything
 * renders it; every failure becomes an ApiError carrying the error document (spec §7).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorEntry[],
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
    super(0, [{ code: 'ContractMismatch', status: '0', detail: `The panel sent an unexpected response from ${url} (${where}).` }]);
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

const SAFE = new Set(['GET', 'HEAD']);

async function ensureCsrfCookie(): Promise<void> {
  if (readCookie('XSRF-TOKEN')) return;
  await fetch('/sanctum/csrf-cookie', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  /** JSON body, or a string/Blob/FormData sent as-is. */
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
  /** Do not broadcast a 401 (sign-in requests answer 4xx by design). */
  quiet401?: boolean;
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const method = opts.method ?? 'GET';
  if (!SAFE.has(method)) await ensureCsrfCookie();
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  const xsrf = readCookie('XSRF-TOKEN');
  if (!SAFE.has(method) && xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData || opts.body instanceof Blob || typeof opts.body === 'string') {
    body = opts.body;
    if (opts.contentType) headers['Content-Type'] = opts.contentType;
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(withQuery(path, opts.query), { method, headers, body, credentials: 'same-origin', signal: opts.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, [{ code: 'NetworkError', status: '0', detail: 'Could not reach the panel. Check your connection and try again.' }]);
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
  if (doc.success) return new ApiError(res.status, doc.data.errors);
  return new ApiError(res.status, [{ code: 'HttpError', status: String(res.status), detail: `The panel answered ${res.status} ${res.statusText}.` }]);
}

/** A request whose JSON answer is parsed with `schema`. */
export async function api<S extends z.ZodMiniType>(path: string, schema: S, opts: RequestOptions = {}): Promise<z.infer<S>> {
  const res = await send(path, opts);
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new ContractError(path, [{ code: 'custom', path: [], message: 'not JSON', input: undefined }]);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ContractError(path, parsed.error.issues);
  return parsed.data;
}

/** A request answered with no content (204). */
export async function apiVoid(path: string, opts: RequestOptions = {}): Promise<void> {
  await send(path, opts);
}

/** A request answered with raw text (e.g. files/contents, spec §4.22). */
export async function apiText(path: string, opts: RequestOptions = {}): Promise<string> {
  const res = await send(path, opts);
  return res.text();
}
