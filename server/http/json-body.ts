import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

const LONE_SURROGATE = /\p{Surrogate}/u;

/** Whether every string in a parsed JSON value, keys included, is well-formed UTF-16. */
function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value !== null && typeof value === 'object') return Object.entries(value).every(([k, v]) => !LONE_SURROGATE.test(k) && wellFormed(v));
  return true;
}

/**
 * Fastify's JSON parser (prototype poisoning refused), reading an empty body as `{}` as the
 * reference does. It also refuses an escaped lone surrogate such as `"\ud800"`: SQLite would
 * store it as U+FFFD characters, so a checked length would not be the stored one. The
 * reference's `json_decode` refuses these bodies too.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    // An empty body is empty input, as the reference reads it: a route that needs fields says which.
    if (text.trim() === '') return done(null, {});
    void parse(request, text, (error, value) => {
      if (error) return done(error);
      if (!wellFormed(value)) return done(new HttpError(400, 'BadRequestHttpException', 'The JSON payload is malformed.'));
      return done(null, value);
    });
  });
}
