import type { Db } from '../db';
import { locations } from '../db/repos';
import type { LocationRow } from '../db/schema';
import { badRequest, validationError } from '../http/errors';
import type { LocationCreate } from '../../src/contract/locations';

/*
 * Locations (issue 25 §2), with the reference panel's rules: a unique short code, and no deleting
 * one that still has nodes (HasActiveNodesException, its text).
 */

export const HAS_NODES = 'Cannot delete a location that has active nodes attached to it.';
export const DEFAULT_LOCATION = 'default';

async function checkShortFree(db: Db, short: string, exceptId?: number): Promise<void> {
  const holder = await locations.findByShort(db, short);
  if (holder && holder.id !== exceptId) throw validationError('short', 'The short code has already been taken.', 'unique');
}

export async function createLocation(db: Db, input: LocationCreate, now: Date): Promise<LocationRow> {
  await checkShortFree(db, input.short);
  const at = now.toISOString();
  return locations.insert(db, { short: input.short, long: input.long ?? null, created_at: at, updated_at: at });
}

export async function updateLocation(db: Db, location: LocationRow, input: LocationCreate, now: Date): Promise<LocationRow> {
  await checkShortFree(db, input.short, location.id);
  return locations.update(db, location.id, {
    short: input.short,
    ...(input.long === undefined ? {} : { long: input.long }),
    updated_at: now.toISOString(),
  });
}

export async function deleteLocation(db: Db, location: LocationRow): Promise<void> {
  if (!(await locations.removeEmpty(db, location.id))) throw badRequest(HAS_NODES, 'HasActiveNodesException');
}

/** The location with this short code, made when missing (the CLI's `--location`, the panel's own node). */
export async function ensureLocation(db: Db, short: string, now: Date): Promise<LocationRow> {
  const existing = await locations.findByShort(db, short);
  if (existing) return existing;
  const at = now.toISOString();
  return locations.insert(db, { short, long: short === DEFAULT_LOCATION ? 'The default location' : null, created_at: at, updated_at: at });
}
