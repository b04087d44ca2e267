import type * as z from 'zod/mini';
import type { PermissionCheck } from './permissions';

/*
 * One row of an endpoint table: everything the SPA's http client and the server's route helper
 * both need to know about a route, so neither writes it down a second time. Tables live in the
 * area files (`fileEndpoints`, `serverEndpoints`, ...).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a successful answer carries: a JSON document checked with a schema, raw text (the file
 * editor's contents), or nothing at all (204).
 */
export type ResponseKind = z.ZodMiniType | 'text' | 'empty';

/** A request body: JSON checked with a schema, or bytes passed through untouched (files/write). */
export type BodyKind = z.ZodMiniType | 'raw';

/**
 * Who may call a server route: a permission (`*` and `group.*` as in `permits`), `null` for any
 * member of the server, or `'request'` when it depends on the request itself (a power signal, the
 * subuser subset rule) and the handler checks it.
 */
export type EndpointPermission = PermissionCheck | null | 'request';

/**
 * What an application key may be granted, per resource (the reference panel's `r_*` columns):
 * reading (GET routes) and writing (every other method), each on its own.
 */
export const APPLICATION_RESOURCES = [
  'users',
  'nodes',
  'allocations',
  'locations',
  'servers',
  'server_databases',
  'nests',
  'eggs',
  'database_hosts',
] as const;
export type ApplicationResource = (typeof APPLICATION_RESOURCES)[number];

export interface EndpointDefinition {
  method: HttpMethod;
  /** Absolute path with `:name` parameters, e.g. `/api/client/servers/:server/files/list`. */
  path: string;
  query?: z.ZodMiniType;
  body?: BodyKind;
  response: ResponseKind;
  /** Server routes only (paths under `/api/client/servers/:server`). */
  permission?: EndpointPermission;
  /**
   * Server routes that still answer while the server is suspended, installing or restoring (the
   * reference panel exempts the server view itself from its 409 state check).
   */
  anyState?: boolean;
  /**
   * An admin route (`/api/application/...`): root admins only, by an application key or their own
   * browser session. Only the admin route helper registers it, and it checks this before anything.
   */
  admin?: true;
  /**
   * Admin routes an application key reaches: the resource its permission is checked on (read for
   * GET, write for the rest). Without one, only a root admin's session reaches the route.
   */
  resource?: ApplicationResource;
}

/** A route any signed-in user may call: never an admin one (the type refuses it). */
export type UserEndpoint = EndpointDefinition & { admin?: undefined };
/** A route for root admins only. */
export type AdminEndpoint = EndpointDefinition & { admin: true };

/** The prefix of every admin route: Pterodactyl's application API, and Aerie's admin additions under it. */
export const ADMIN_ROUTE_PREFIX = '/api/application';

/** Declares an endpoint, keeping its literal path and schema types. */
export function endpoint<const E extends EndpointDefinition>(definition: E): E {
  return definition;
}

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** `{ server: string, backup: string }` for `/api/client/servers/:server/backups/:backup`. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string | number };

/** The decoded JSON (or text) a successful call of `E` yields. */
export type EndpointResult<E extends EndpointDefinition> = E['response'] extends z.ZodMiniType
  ? z.output<E['response']>
  : E['response'] extends 'text'
    ? string
    : void;

/** What a server handler of `E` may send: anything the response schema accepts. */
export type EndpointReply<E extends EndpointDefinition> = E['response'] extends z.ZodMiniType
  ? z.input<E['response']>
  : E['response'] extends 'text'
    ? string | Uint8Array
    : void;

export type EndpointQuery<E extends EndpointDefinition> = E['query'] extends z.ZodMiniType ? z.output<E['query']> : undefined;
export type EndpointBody<E extends EndpointDefinition> = E['body'] extends z.ZodMiniType ? z.output<E['body']> : undefined;

/** What a caller sends: the schemas' input types (defaults may be left out). */
export type EndpointQueryInput<E extends EndpointDefinition> = E['query'] extends z.ZodMiniType ? z.input<E['query']> : undefined;
export type EndpointBodyInput<E extends EndpointDefinition> = E['body'] extends z.ZodMiniType
  ? z.input<E['body']>
  : E['body'] extends 'raw'
    ? string | Blob
    : undefined;

/** Fills the `:name` parameters of a path, each percent-encoded. */
export function endpointPath<P extends string>(path: P, params: PathParams<P>): string {
  const values = params as Record<string, string | number>;
  return path.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** The part of a server route's path below `/api/client/servers/:server` (`''` for the server itself). */
export const SERVER_ROUTE_PREFIX = '/api/client/servers/:server';
