import type { ServerCondition } from './server-state';
import { useT } from './messages';

/**
 * A server page's body while the server is unavailable (suspended, installing, install failed,
 * restoring, moving, node under maintenance): the panel would refuse each of the page's requests
 * (409), so none is made, and this says what the page cannot show and why. The banner above it
 * says what the state means for the server as a whole.
 */
export function ServerUnavailable({ page, condition }: { page: string; condition: ServerCondition }) {
  const t = useT();
  return (
    <div role="status" className="rounded-lg bg-zinc-900 p-6 text-center ring-1 ring-zinc-800">
      <h2 className="font-semibold text-white">{t('servers.unavailable.title', { page })}</h2>
      <p className="mt-1 text-sm text-zinc-400">{t('servers.unavailable.body', { reason: condition.reason })}</p>
    </div>
  );
}
