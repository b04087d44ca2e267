import { Link } from 'react-router';
import type { ApplicationServer } from '../../contract/admin-servers';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../components/ui/cn';
import { addressOf, eggNameOf, nodeNameOf, ownerOf, statusLabel } from './server-relations';

/** Servers as rows linking to their admin pages: owner, node, address, egg and a state badge (the servers list, a user's page). */
export function ServerRows({
  servers,
  label,
  busy,
  className,
}: {
  servers: readonly ApplicationServer[];
  label: string;
  busy?: boolean;
  className?: string;
}) {
  return (
    <ul
      aria-label={label}
      aria-busy={busy || undefined}
      className={cn('divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800', className)}
    >
      {servers.map((s) => {
        const status = statusLabel(s);
        const owner = ownerOf(s);
        return (
          <li key={s.uuid} className="relative flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 hover:bg-zinc-800/40">
            <div className="min-w-0 flex-1 basis-48">
              {/* The whole row is the link's target; only the name is announced. */}
              <Link
                to={`/admin/servers/${s.id}`}
                className="font-medium break-all text-zinc-100 after:absolute after:inset-0 focus-visible:outline-none focus-visible:after:rounded-lg focus-visible:after:ring-2 focus-visible:after:ring-sky-500"
              >
                {s.name}
              </Link>
              <p className="text-sm break-all text-zinc-400">{owner.email ?? owner.username ?? `User #${s.user}`}</p>
            </div>
            <dl className="grid min-w-0 basis-full grid-cols-[auto_1fr] gap-x-2 text-sm text-zinc-400 sm:basis-auto sm:grid-cols-[auto_auto_auto_auto_auto_auto]">
              <dt className="text-zinc-500">Node</dt>
              <dd className="break-all text-zinc-300">{nodeNameOf(s) ?? `#${s.node}`}</dd>
              <dt className="text-zinc-500">Address</dt>
              <dd className="font-mono break-all text-zinc-300">{addressOf(s) ?? '—'}</dd>
              <dt className="text-zinc-500">Egg</dt>
              <dd className="break-all text-zinc-300">{eggNameOf(s) ?? `#${s.egg}`}</dd>
            </dl>
            {status && (
              <div className="flex flex-wrap gap-2">
                <Badge tone={status.tone}>{status.label}</Badge>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
