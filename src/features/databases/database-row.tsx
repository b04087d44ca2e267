import { useId } from 'react';
import type { ServerDatabase } from '../../contract/databases';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { PermissionHint } from '../../lib/permissions';
import { connectionStrings, endpointOf, passwordOf } from './api';
import { useT } from './messages';

/** One labelled value with its copy button; a long one (`wide`) puts the button under it on a phone. */
function Value({ label, copyLabel, value, wide = false }: { label: string; copyLabel: string; value: string; wide?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-400">{label}</dt>
      <dd className={wide ? 'flex flex-col items-start gap-1 sm:flex-row sm:items-center sm:gap-2' : 'flex items-center gap-2'}>
        <span className="min-w-0 font-mono text-sm break-all text-zinc-100">{value}</span>
        <CopyButton value={value} label={copyLabel} className="shrink-0" />
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
  const t = useT();
  const detailsId = useId();
  const password = canViewPassword ? passwordOf(d) : null;
  const shown = revealed ? password : null;
  const strings = connectionStrings(d, shown);

  return (
    <li aria-label={d.name} className="px-4 py-3">
      <div className="flex flex-wrap items-start gap-x-6 gap-y-3">
        <dl className="grid min-w-0 flex-1 basis-full grid-cols-1 gap-x-6 gap-y-2 sm:basis-0 sm:grid-cols-2 lg:grid-cols-4">
          <Value label={t('databases.field.name')} copyLabel={t('databases.copy.name')} value={d.name} wide />
          <Value label={t('databases.field.endpoint')} copyLabel={t('databases.copy.endpoint')} value={endpointOf(d)} />
          <Value label={t('databases.field.remote')} copyLabel={t('databases.copy.remote')} value={d.connections_from} />
          <Value label={t('databases.field.username')} copyLabel={t('databases.copy.username')} value={d.username} />
        </dl>
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={expanded}
          aria-controls={detailsId}
          onClick={onToggle}
          aria-label={t('databases.details.label', { name: d.name })}
        >
          {expanded ? t('databases.details.hide') : t('databases.details')}
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
                <dt className="text-xs text-zinc-400">{t('databases.field.password')}</dt>
                <dd className="flex flex-wrap items-center gap-2">
                  <span className="basis-full font-mono text-sm break-all text-zinc-100 sm:basis-auto">{shown ?? '••••••••••••'}</span>
                  <Button variant="ghost" size="sm" onClick={() => onReveal(!revealed)}>
                    {revealed ? t('databases.password.hide') : t('databases.password.show')}
                  </Button>
                  {shown !== null && <CopyButton value={shown} label={t('databases.copy.password')} />}
                </dd>
              </div>
            )}
            <Value label={t('databases.field.url')} copyLabel={t('databases.copy.url')} value={strings.url} wide />
            <Value label={t('databases.field.jdbc')} copyLabel={t('databases.copy.jdbc')} value={strings.jdbc} wide />
          </dl>
          {/* 0 is the reference's "no limit of its own"; this panel always sets one. */}
          {d.max_connections > 0 && <p className="text-xs text-zinc-400">{t('databases.maxConnections', { count: d.max_connections })}</p>}
          {!canViewPassword && (
            <div className="text-xs text-zinc-400">
              {t('databases.password.hidden')} <PermissionHint permission="database.view_password" className="mt-1" />
            </div>
          )}
          {(canRotate || canDelete) && (
            <div className="flex flex-wrap gap-2">
              {canRotate && (
                <Button variant="secondary" size="sm" onClick={onRotate}>
                  {t('databases.rotate')}
                </Button>
              )}
              {canDelete && (
                <Button variant="ghost" size="sm" onClick={onDelete}>
                  {t('databases.delete')}
                </Button>
              )}
            </div>
          )}
        </div>
      )}
    </li>
  );
}
