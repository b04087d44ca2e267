import { T, useT } from './messages';

/** Said when a create was refused for want of a database host: plainly to owners, with the way to add one to admins. */
export function NoHostNotice({ admin }: { admin: boolean }) {
  const t = useT();
  return (
    <div role="status" className="rounded-lg bg-amber-950/40 p-4 text-sm ring-1 ring-amber-800/60">
      <p className="font-medium text-amber-200">{t('databases.noHost.title')}</p>
      {admin ? (
        <div className="mt-2 space-y-2 text-zinc-300">
          <p>{t('databases.noHost.admin')}</p>
          <pre className="rounded break-all whitespace-pre-wrap bg-zinc-950 p-2 font-mono text-xs text-zinc-100">
            npm run -s panel -- dbhost:create --name N --host H --port P --username U --password W
          </pre>
          <p>
            <T
              k="databases.noHost.adminOr"
              values={{ setting: 'PANEL_DB_HOST_URL=mysql://user:pass@host:port', command: 'npm start' }}
              components={{ 0: <code className="font-mono break-all text-zinc-100" />, 1: <code className="font-mono text-zinc-100" /> }}
            />
          </p>
        </div>
      ) : (
        <p className="mt-1 text-zinc-300">{t('databases.noHost.ask')}</p>
      )}
    </div>
  );
}
