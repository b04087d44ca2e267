import { useId } from 'react';
import type { ServerDatabase } from '../../contract/databases';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { PermissionHint } from '../../lib/permissions';
import { connectionStrings, endpointOf, passwordOf } from './api';

/** One labelled value with its copy button; a long one (`wide`) puts the button under it on a phone. */
function Value({ label, value, wide = false }: { label: string; value: string; wide?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-400">{label}</dt>
      <dd className={wide ? 'flex flex-col items-start gap-1 sm:flex-row sm:items-center sm:gap-2' : 'flex items-center gap-2'}>
        <span className="min-w-0 font-mono text-sm break-all text-zinc-100">{value}</span>
        <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} className="shrink-0" />
      </dd>
    </div>
  );
}

/**
 * A database: what to connect to, each with copy; its details (the password, hidden until revealed,
 * and the connection strings) open below, with rotate and delete for those allowed.
 */
export function DatabaseRow({
  database: d,
  canViewPassword,
  canRotate,
  canDelete,
  expanded,
  revealed,
  onToggle,
  onReveal,
  onRotate,
  onDelete,
  notice,
}: {
  database: ServerDatabase;
  canViewPassword: boolean;
  canRotate: boolean;
  canDelete: boolean;
  expanded: boolean;
  /** The password shows in clear (and in the connection strings). */
  revealed: boolean;
  onToggle: () => void;
  onReveal: (revealed: boolean) => void;
  onRotate: () => void;
  onDelete: () => void;
  /** Said in the details after a change (a rotation). */
  notice: string | null;
}) {
  const detailsId = useId();
  const password = canViewPassword ? passwordOf(d) : null;
  const shown = revealed ? password : null;
  const strings = connectionStrings(d, shown);

  return (
    <li aria-label={d.name} className="px-4 py-3">
      <div className="flex flex-wrap items-start gap-x-6 gap-y-3">
        <dl className="grid min-w-0 flex-1 basis-full grid-cols-1 gap-x-6 gap-y-2 sm:basis-0 sm:grid-cols-2 lg:grid-cols-4">
          <Value label="Name" value={d.name} wide />
          <Value label="Endpoint" value={endpointOf(d)} />
          <Value label="Connections from" value={d.connections_from} />
          <Value label="Username" value={d.username} />
        </dl>
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={expanded}
          aria-controls={detailsId}
          onClick={onToggle}
          aria-label={`Details of ${d.name}`}
        >
          {expanded ? 'Hide details' : 'Details'}
        </Button>
      </div>
      {expanded && (
        <div id={detailsId} className="mt-3 space-y-3 rounded-md bg-zinc-950/60 p-3 ring-1 ring-zinc-800">
          {notice && (
            <p role="status" className="text-sm text-emerald-300">
              {notice}
            </p>
          )}
          <dl className="space-y-2">
            {password !== null && (
              <div>
                <dt className="text-xs text-zinc-400">Password</dt>
                <dd className="flex flex-wrap items-center gap-2">
                  <span className="basis-full font-mono text-sm break-all text-zinc-100 sm:basis-auto">{shown ?? '••••••••••••'}</span>
                  <Button variant="ghost" size="sm" onClick={() => onReveal(!revealed)}>
                    {revealed ? 'Hide password' : 'Show password'}
                  </Button>
                  {shown !== null && <CopyButton value={shown} label="Copy password" />}
                </dd>
              </div>
            )}
            <Value label="Connection URL" value={strings.url} wide />
            <Value label="JDBC connection string" value={strings.jdbc} wide />
          </dl>
          {/* 0 is the reference's "no limit of its own"; this panel always sets one. */}
          {d.max_connections > 0 && <p className="text-xs text-zinc-400">At most {d.max_connections} connections at once.</p>}
          {!canViewPassword && (
            <div className="text-xs text-zinc-400">
              The password is hidden from your account. <PermissionHint permission="database.view_password" className="mt-1" />
            </div>
          )}
          {(canRotate || canDelete) && (
            <div className="flex flex-wrap gap-2">
              {canRotate && (
                <Button variant="secondary" size="sm" onClick={onRotate}>
                  Rotate password
                </Button>
              )}
              {canDelete && (
                <Button variant="ghost" size="sm" onClick={onDelete}>
                  Delete database
                </Button>
              )}
            </div>
          )}
        </div>
      )}
    </li>
  );
}
