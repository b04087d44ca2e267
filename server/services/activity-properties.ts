/*
 * An entry's properties are capped: a delete may name 10,000 files of up to 4 KiB each, and an
 * audit log that stores 40 MB per click fills the disk (and every page of the log would carry it).
 * Past the cap, long lists keep their first entries and say how many were left out in
 * `<key>_omitted` (the reader counts those too, so "Deleted 1000 files" stays true); if that is not
 * enough, the largest remaining values are cut (a long text keeps its start).
 */

/** The largest stored properties, as UTF-8 bytes of their JSON. */
export const MAX_PROPERTIES_BYTES = 8 * 1024;

const LONG_TEXT = 512;
const CUT = '…';
// Lists beyond the largest few are left to the general cut, so hostile input costs no more than a few passes.
const LISTS_SHORTENED = 4;

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '');
const fits = (value: unknown): boolean => bytes(value) <= MAX_PROPERTIES_BYTES;

/** `properties` as stored: unchanged when it fits, otherwise shortened as described above. */
export function capProperties(properties: Record<string, unknown>): Record<string, unknown> {
  if (fits(properties)) return properties;
  // Built from entries, so a `__proto__` key stays a plain key.
  const out = new Map(Object.entries(properties));
  const current = () => Object.fromEntries(out);

  const lists = [...out].flatMap(([key, value]) => (Array.isArray(value) ? [{ key, list: value as unknown[], size: bytes(value) }] : []));
  for (const { key, list } of lists.sort((a, b) => b.size - a.size).slice(0, LISTS_SHORTENED)) {
    // What the rest weighs with this list empty and the largest possible count beside it.
    out.set(key, []).set(`${key}_omitted`, list.length);
    let room = MAX_PROPERTIES_BYTES - bytes(current());
    const kept: unknown[] = [];
    for (const item of list) {
      room -= bytes(item) + (kept.length > 0 ? 1 : 0);
      if (room < 0) break;
      kept.push(item);
    }
    out.set(key, kept).set(`${key}_omitted`, list.length - kept.length);
    if (kept.length === list.length) out.delete(`${key}_omitted`);
    if (fits(current())) return current();
  }

  // Sizes are added up rather than measured again, so many keys cost one pass.
  const entries = [...out].map(([key, value]) => ({ key, value, size: bytes(key) + 1 + bytes(value) }));
  let total = 2 + Math.max(0, entries.length - 1) + entries.reduce((sum, e) => sum + e.size, 0);
  for (const entry of entries.sort((a, b) => b.size - a.size)) {
    if (total <= MAX_PROPERTIES_BYTES) break;
    const value = entry.value;
    const cut = typeof value === 'string' && value.length > LONG_TEXT ? value.slice(0, LONG_TEXT) + CUT : CUT;
    out.set(entry.key, cut);
    total -= bytes(value) - bytes(cut);
  }
  const result = current();
  // Thousands of keys: not even their names fit.
  return fits(result) ? result : { properties_omitted: out.size };
}
