import { useQuery } from '@tanstack/react-query';
import { nodeConfigYaml } from '../../contract/node-config-yaml';
import { Card } from '../../components/ui/card';
import { CopyButton } from '../../components/ui/copy-button';
import { Spinner } from '../../components/ui/spinner';
import { describeError } from '../../components/ui/states';
import { adminNodeQueries } from './api';
import { useT } from './messages';

/** The command that starts Aerie's node with that file, from a checkout of Aerie on the node's machine (README). */
export const NODE_START_COMMAND = 'npm run -s node -- --config config.yml';

/**
 * The node's `config.yml`, the same text `panel node:config` prints (one renderer), with the
 * command that starts Aerie's node on it. It holds the node's secret token: shown only here.
 */
export function NodeConfigCard({ nodeId }: { nodeId: string }) {
  const t = useT();
  const query = useQuery(adminNodeQueries.configuration(nodeId));
  return (
    <Card title={t('adminNodes.config.title')}>
      {query.isPending ? (
        <Spinner label={t('adminNodes.config.loading')} />
      ) : query.isError ? (
        // The panel's own node has none (it runs inside the panel): the panel says so.
        <p className="text-sm text-zinc-300">{describeError(query.error).detail}</p>
      ) : (
        <ConfigText yaml={nodeConfigYaml(query.data)} />
      )}
    </Card>
  );
}

function ConfigText({ yaml }: { yaml: string }) {
  const t = useT();
  return (
    <div className="space-y-4 text-sm text-zinc-300">
      <div className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="font-medium text-zinc-100">config.yml</h3>
          <CopyButton value={yaml} label={t('adminNodes.config.copy')} />
        </div>
        <pre
          aria-label="config.yml"
          tabIndex={0}
          className="max-h-96 overflow-auto rounded-md bg-zinc-950 p-3 font-mono text-xs leading-relaxed text-zinc-100 ring-1 ring-zinc-800"
        >
          {yaml}
        </pre>
        <p className="text-xs text-zinc-400">{t('adminNodes.config.secret')}</p>
      </div>
      <div className="space-y-2">
        <h3 className="font-medium text-zinc-100">{t('adminNodes.config.start')}</h3>
        <p>{t('adminNodes.config.save')}</p>
        <p className="flex flex-wrap items-center gap-2">
          <code
            aria-label={t('adminNodes.config.command')}
            className="rounded bg-zinc-950 px-2 py-1 font-mono text-xs break-all text-zinc-100 ring-1 ring-zinc-800"
          >
            {NODE_START_COMMAND}
          </code>
          <CopyButton value={NODE_START_COMMAND} label={t('adminNodes.config.copyCommand')} />
        </p>
        <p>{t('adminNodes.config.wings')}</p>
      </div>
    </div>
  );
}
