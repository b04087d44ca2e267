/** Eight dark-theme tones; a name always gets the same one. */
const TONES = ['bg-sky-700', 'bg-emerald-700', 'bg-violet-700', 'bg-amber-700', 'bg-rose-700', 'bg-teal-700', 'bg-indigo-700', 'bg-fuchsia-700'];

function toneOf(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return TONES[hash % TONES.length] ?? 'bg-zinc-700';
}

/**
 * A round avatar drawn from the name's initials: no request leaves the browser (the API's
 * `image` is a gravatar URL, kept for reference clients but never loaded here).
 */
export function Avatar({ name }: { name: string }) {
  const initials =
    name
      .split(/[\s._@-]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part.charAt(0).toUpperCase())
      .join('') || '?';
  return (
    <span
      aria-hidden
      className={`flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-always-white ${toneOf(name)}`}
    >
      {initials}
    </span>
  );
}
