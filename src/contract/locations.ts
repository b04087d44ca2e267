import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { item, list, nullResourceSchema, paginatedMetaSchema } from './envelope';
import { filterText, pageNumber, perPage, timestamp } from './fields';

/*
 * Locations, as the application API shows them (the reference panel's `location` resource,
 * `/api/application/locations`): a short code and a description grouping nodes.
 */

/*
 * What `include=` adds under `attributes.relationships`: a list, one item, or a null resource
 * where the key may not read the included resource. The entries are the included resources'
 * own shapes; they are checked loosely here so one area's schema need not import another's.
 */
const relatedItem = z.object({ object: z.string(), attributes: z.looseObject({ id: z.int() }) });
export const relationshipSchema = z.union([z.object({ object: z.literal('list'), data: z.array(relatedItem) }), relatedItem, nullResourceSchema]);
export const relationshipsSchema = z.optional(z.record(z.string(), relationshipSchema));
export type Relationship = z.infer<typeof relationshipSchema>;

export const locationAttributes = z.object({
  id: z.int(),
  short: z.string(),
  long: z.nullable(z.string()),
  updated_at: timestamp,
  created_at: timestamp,
  relationships: relationshipsSchema,
});
export type Location = z.infer<typeof locationAttributes>;
export const locationSchema = item('location', locationAttributes);
export const locationListSchema = list(locationSchema, paginatedMetaSchema);
/** A new location: its resource and, as the reference, `meta.resource` (its URL). */
export const createdLocationSchema = z.object({
  object: z.literal('location'),
  attributes: locationAttributes,
  meta: z.object({ resource: z.string() }),
});

/** `include=a,b`: the relationships to add; ones the resource does not have are ignored, as the reference. */
export const includeField = z.optional(z.string().check(z.maxLength(191, 'The include may not be greater than 191 characters.')));

export const LOCATION_SORTS = ['id', '-id'] as const;
export const locationListQuerySchema = z.object({
  page: pageNumber,
  per_page: perPage(50, 100),
  'filter[short]': filterText,
  'filter[long]': filterText,
  sort: z.optional(z.enum(LOCATION_SORTS, { error: 'The sort must be id (with - for descending).' })),
  include: includeField,
});
export const includeQuerySchema = z.object({ include: includeField });

// The reference's `Location::$validationRules`: short 1-60 and unique, long 1-191 or null.
const short = z
  .string({ error: 'The short code field is required.' })
  .check(z.trim(), z.minLength(1, 'The short code field is required.'), z.maxLength(60, 'The short code must be between 1 and 60 characters.'));
const long = z.nullable(
  z
    // `long` is the description: the messages say so, as the form labels it.
    .string({ error: 'The description must be a string.' })
    .check(
      z.minLength(1, 'The description must be between 1 and 191 characters.'),
      z.maxLength(191, 'The description must be between 1 and 191 characters.'),
    ),
);
/** Creating or changing a location: the reference's update needs the same fields as its create. */
export const locationCreateSchema = z.object({ short, long: z.optional(long) });
export type LocationCreate = z.infer<typeof locationCreateSchema>;

const locationsPath = `${ADMIN_ROUTE_PREFIX}/locations`;

export const locationEndpoints = {
  list: endpoint({
    method: 'GET',
    path: locationsPath,
    query: locationListQuerySchema,
    response: locationListSchema,
    admin: true,
    resource: 'locations',
  }),
  view: endpoint({
    method: 'GET',
    path: `${locationsPath}/:location`,
    query: includeQuerySchema,
    response: locationSchema,
    admin: true,
    resource: 'locations',
  }),
  /** 201 with the location and `meta.resource`. */
  create: endpoint({
    method: 'POST',
    path: locationsPath,
    body: locationCreateSchema,
    response: createdLocationSchema,
    admin: true,
    resource: 'locations',
  }),
  update: endpoint({
    method: 'PATCH',
    path: `${locationsPath}/:location`,
    body: locationCreateSchema,
    response: locationSchema,
    admin: true,
    resource: 'locations',
  }),
  /** Refused (400 HasActiveNodesException) while nodes are in it. */
  delete: endpoint({ method: 'DELETE', path: `${locationsPath}/:location`, response: 'empty', admin: true, resource: 'locations' }),
};
