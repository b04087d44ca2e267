/**
 * The palette's recent choices, newest first, kept in localStorage per account (two people on one
 * browser do not see each other's servers). What is kept is enough to show a jump again without
 * asking the API; an action is only remembered by id, and offered again only where it applies.
 */
export interface RecentEntry {
  id: string;
  label: string;
  detail?: string;
  href?: string;
}

const MAX = 8;
const key = (accountId: number) => `aerie.palette.recent.${accountId}`;

function isEntry(value: unknown): value is RecentEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    typeof v.label === 'string' &&
    (v.detail === undefined || typeof v.detail === 'string') &&
    (v.href === undefined || (typeof v.href === 'string' && v.href.startsWith('/')))
  );
}

export function loadRecent(accountId: number): RecentEntry[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key(accountId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isEntry).slice(0, MAX) : [];
  } catch {
    return [];
  }
}

/** Puts `entry` first (once), keeping the newest few. */
export function pushRecent(accountId: number, entry: RecentEntry): RecentEntry[] {
  const next = [entry, ...loadRecent(accountId).filter((e) => e.id !== entry.id)].slice(0, MAX);
  try {
    localStorage.setItem(key(accountId), JSON.stringify(next));
  } catch {
    // A full or refused storage only loses the ordering.
  }
  return next;
}
