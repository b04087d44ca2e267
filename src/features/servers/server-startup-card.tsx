import type { Server } from '../../contract/servers';
import { Card } from '../../components/ui/card';
import { CopyButton } from '../../components/ui/copy-button';
import { programSentence } from '../../lib/server-runtime';
import { useT } from './messages';

/** The startup command as the server runs it (hidden variables show as `[hidden]`) and its container image. */
export function ServerStartupCard({ server }: { server: Server }) {
  const t = useT();
  return (
    <Card title={t('servers.startup.title')}>
      <div className="space-y-4">
        <div>
          <div className="mb-1.5 flex items-center justify-between gap-2">
            <h3 className="text-sm text-zinc-400">{t('servers.startup.invocation')}</h3>
            <CopyButton value={server.invocation} label={t('servers.startup.copyInvocation')} />
          </div>
          <pre className="rounded-md bg-zinc-950 p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-zinc-200 ring-1 ring-zinc-800">
            {server.invocation || '—'}
          </pre>
        </div>
        <div>
          <div className="mb-1.5 flex items-center justify-between gap-2">
            <h3 className="text-sm text-zinc-400">{t('servers.startup.image')}</h3>
            <CopyButton value={server.docker_image} label={t('servers.startup.copyImage')} />
          </div>
          <code className="block rounded-md bg-zinc-950 p-3 font-mono text-xs break-all text-zinc-200 ring-1 ring-zinc-800">
            {server.docker_image}
          </code>
          {server.aerie_runtime && (
            <p className="mt-2 text-xs text-zinc-400">
              {t('servers.startup.notUsed')} {programSentence(server.aerie_runtime)}
            </p>
          )}
        </div>
      </div>
    </Card>
  );
}
