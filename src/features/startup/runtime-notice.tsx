import type { EggVariable } from '../../contract/startup';
import { Card } from '../../components/ui/card';
import { filesSentence, imageNotUsed, programFile, programSentence } from '../../lib/server-runtime';
import { useServer } from '../servers/api';

/**
 * What the server really runs with on Aerie's own node, and what its egg leaves to the user (the
 * Paper egg downloads nothing). A real panel sends no `aerie_runtime`: nothing is shown there.
 */
export function RuntimeNotice({ variables }: { variables: readonly EggVariable[] }) {
  const runtime = useServer().aerie_runtime;
  if (!runtime) return null;
  const files = filesSentence(runtime, programFile(variables));
  return (
    <Card title="What it runs with">
      <div className="space-y-2 text-sm text-zinc-300">
        <p className={runtime.program_path ? undefined : 'text-amber-200'}>{programSentence(runtime)}</p>
        {files && <p className="text-amber-200">{files}</p>}
        <p className="text-zinc-400">{imageNotUsed()}</p>
      </div>
    </Card>
  );
}
