import type * as z from 'zod/mini';
import type { ErrorDocument, ErrorEntry } from '../../src/contract';

/**
 * The one error type routes and services throw. The app's error handler turns it into the error
 * document (`errors: [{ code, status, detail, source? }]`); `code` values are the reference panel's.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly entries?: ErrorEntry[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }

  toDocument(): ErrorDocument {
    return {
      errors: this.entries ?? [{ code: this.code, status: String(this.status), detail: this.message }],
    };
  }
}

export const badRequest = (detail: string, code = 'BadRequestHttpException') => new HttpError(400, code, detail);
export const unauthenticated = () => new HttpError(401, 'AuthenticationException', 'Unauthenticated.');
export const forbidden = (detail = 'This action is unauthorized.', code = 'AccessDeniedHttpException') => new HttpError(403, code, detail);
export const notFound = (detail = 'The requested resource could not be found on the server.') => new HttpError(404, 'NotFoundHttpException', detail);
export const conflict = (detail: string) => new HttpError(409, 'ServerStateConflictException', detail);
export const csrfMismatch = () => new HttpError(419, 'HttpException', 'CSRF token mismatch.');
export const tooManyRequests = (retryAfterSeconds: number, detail = 'Too Many Attempts.', code = 'ThrottleRequestsException') =>
  new HttpError(429, code, detail, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** A field-level failure on a named request field (422, `source.field`). */
export function validationError(field: string, detail: string, rule = 'invalid'): HttpError {
  return validationErrors([{ field, detail }], rule);
}

/** Several field-level failures in one 422, each entry naming its field. */
export function validationErrors(failures: readonly { field: string; detail: string }[], rule = 'invalid'): HttpError {
  const entries: ErrorEntry[] = failures.map(({ field, detail }) => ({
    code: 'ValidationException',
    status: '422',
    detail,
    source: { field },
    meta: { source_field: field, rule },
  }));
  return new HttpError(422, 'ValidationException', failures[0]?.detail ?? 'The given data was invalid.', entries);
}

/** Turns zod issues into one entry per issue, each naming its field (`files.0.to`). */
export function fromZodError(error: z.core.$ZodError, fieldPrefix = ''): HttpError {
  const entries: ErrorEntry[] = error.issues.map((issue) => {
    const field = fieldPrefix + (issue.path.length ? issue.path.join('.') : 'body');
    const detail = issue.code === 'invalid_type' && issue.input === undefined ? `The ${humanise(field)} field is required.` : issue.message;
    return { code: 'ValidationException', status: '422', detail, source: { field }, meta: { source_field: field, rule: issue.code } };
  });
  return new HttpError(422, 'ValidationException', entries[0]?.detail ?? 'The given data was invalid.', entries);
}

function humanise(field: string): string {
  return field.replace(/[_.]/g, ' ').replace(/\[|\]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Parses `data` with a contract schema or throws the 422 document. */
export function parseWith<S extends z.ZodMiniType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data ?? {});
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}
