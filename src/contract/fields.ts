import * as z from 'zod/mini';

/*
 * Field rules several areas share. Where a real Pterodactyl panel sends null for a string,
 * the resource schemas accept null too, so the SPA works in front
 * of either; our server emits exactly the spec's types.
 */

export const timestamp = z.string().check(z.minLength(1));
export const nullableString = z.nullable(z.string());
export const nullableInt = z.nullable(z.int());

/** A required string field whose absence reads "The … field is required." */
export const text = (required: string) => z.string({ error: required });

/** A path inside a server volume as the client sends it; hostility is judged by the daemon. */
export const volumePath = z.string().check(
  z.maxLength(4096, 'The path may not be greater than 4096 characters.'),
  z.refine((s) => !s.includes('\0'), 'The path may not contain NUL bytes.'),
);

export const requiredPath = (message: string) =>
  z.string({ error: message }).check(
    z.minLength(1, message),
    z.maxLength(4096, 'The path may not be greater than 4096 characters.'),
    z.refine((s) => !s.includes('\0'), 'The path may not contain NUL bytes.'),
  );

/** A directory that defaults to the volume root when absent, null or empty. */
export const rootPath = z.pipe(
  z.nullish(volumePath),
  z.transform((s) => (s === null || s === undefined || s === '' ? '/' : s)),
);

/*
 * Query strings with the reference panel's parameter names. Keys such as `filter[name]` arrive
 * literally (no nested parsing), so they are spelled that way.
 */

const isInt = (n: number) => Number.isInteger(n);

export const pageNumber = z._default(
  z.coerce
    .number({ error: 'The page must be an integer.' })
    .check(z.refine(isInt, 'The page must be an integer.'), z.gte(1, 'The page must be at least 1.'), z.lte(1_000_000, 'The page is too large.')),
  1,
);

export function perPage(defaultSize: number, max: number) {
  return z._default(
    z.coerce
      .number({ error: 'The per page must be an integer.' })
      .check(
        z.refine(isInt, 'The per page must be an integer.'),
        z.gte(1, 'The per page must be at least 1.'),
        z.lte(max, `The per page may not be greater than ${max}.`),
      ),
    defaultSize,
  );
}

export const filterText = z.optional(z.string().check(z.maxLength(191, 'The filter may not be greater than 191 characters.')));

/** `filter[...]` keys a query may carry that the endpoint does not know (400, as the reference panel). */
export function unknownFilters(query: object, allowed: readonly string[]): string[] {
  return Object.keys(query).filter((k) => k.startsWith('filter[') && !allowed.includes(k));
}
