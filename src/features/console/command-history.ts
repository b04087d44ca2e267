/*
 * The commands sent from this browser, per server, newest last, kept in localStorage so ↑ finds
 * yesterday's commands too. A repeat of the last command is not stored twice.
 */

export const HISTORY_LIMIT = 50;

const key = (serverUuid: string) => `aerie:console-history:${serverUuid}`;

export function loadHistory(serverUuid: string): string[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(key(serverUuid)) ?? '[]');
    return Array.isArray(raw) ? raw.filter((c): c is string => typeof c === 'string').slice(-HISTORY_LIMIT) : [];
  } catch {
    return [];
  }
}

export function pushHistory(serverUuid: string, command: string): string[] {
  const history = loadHistory(serverUuid);
  if (history.at(-1) !== command) history.push(command);
  const kept = history.slice(-HISTORY_LIMIT);
  try {
    localStorage.setItem(key(serverUuid), JSON.stringify(kept));
  } catch {
    // Storage full or disabled: the history lasts for this page only.
  }
  return kept;
}

/**
 * Moving through the history with ↑ (-1) and ↓ (+1). `index` is the position shown, `history.length`
 * meaning the draft line; `draft` is what was typed before the first ↑, given back past the newest.
 */
export function step(history: readonly string[], index: number, direction: -1 | 1, draft: string): { index: number; value: string } {
  const next = Math.max(0, Math.min(history.length, index + direction));
  return { index: next, value: next === history.length ? draft : (history[next] ?? draft) };
}
