/** Said when a create was refused for want of a database host: plainly to owners, with the way to add one to admins. */
export function NoHostNotice({ admin }: { admin: boolean }) {
  return (
    <div role="status" className="rounded-lg bg-amber-950/40 p-4 text-sm ring-1 ring-amber-800/60">
      <p className="font-medium text-amber-200">This panel has no database host, so databases cannot be created here.</p>
      {admin ? (
        <div className="mt-2 space-y-2 text-zinc-300">
          <p>As an administrator you can add a MariaDB or MySQL server whose account may create databases and users:</p>
          <pre className="rounded break-all whitespace-pre-wrap bg-zinc-950 p-2 font-mono text-xs text-zinc-100">
            npm run -s panel -- dbhost:create --name N --host H --port P --username U --password W
          </pre>
          <p>
            or start the panel with <code className="font-mono break-all text-zinc-100">PANEL_DB_HOST_URL=mysql://user:pass@host:port</code>. With
            MariaDB installed on the panel's machine, <code className="font-mono text-zinc-100">npm start</code> runs one of its own when no host is
            set.
          </p>
        </div>
      ) : (
        <p className="mt-1 text-zinc-300">Ask the panel's administrator to add one.</p>
      )}
    </div>
  );
}
