import type { ApplicationServer } from '../../contract/admin-servers';
import { Badge } from '../../components/ui/badge';
import { ListRow, RowList } from '../../components/ui/row-list';
import { useT } from './messages';
import { addressOf, eggNameOf, nodeNameOf, ownerOf, statusLabel } from './server-relations';

/** Servers as rows linking to their admin pages: owner, node, address, egg and a state badge. */
export function ServerRows({ servers, label, busy }: { servers: readonly ApplicationServer[]; label: string; busy?: boolean }) {
  const t = useT();
  return (
    <RowList label={label} busy={busy}>
      {servers.map((s) => {
        const status = statusLabel(s);
        const owner = ownerOf(s);
        return (
          <ListRow
            key={s.uuid}
            to={`/admin/servers/${s.id}`}
            title={s.name}
            details={<p className="text-sm break-all text-zinc-400">{owner.email ?? owner.username ?? t('adminServers.user', { id: s.user })}</p>}
          >
            <dl className="grid min-w-0 basis-full grid-cols-[auto_1fr] gap-x-2 text-sm text-zinc-400 sm:basis-auto sm:grid-cols-[auto_auto_auto_auto_auto_auto]">
              <dt className="text-zinc-500">{t('adminServers.node')}</dt>
              <dd className="break-all text-zinc-300">{nodeNameOf(s) ?? `#${s.node}`}</dd>
              <dt className="text-zinc-500">{t('adminServers.address')}</dt>
              <dd className="font-mono break-all text-zinc-300">{addressOf(s) ?? '—'}</dd>
              <dt className="text-zinc-500">{t('adminServers.egg')}</dt>
              <dd className="break-all text-zinc-300">{eggNameOf(s) ?? `#${s.egg}`}</dd>
            </dl>
            {status && (
              <div className="flex flex-wrap gap-2">
                <Badge tone={status.tone}>{status.label}</Badge>
              </div>
            )}
          </ListRow>
        );
      })}
    </RowList>
  );
}
