import { useCallback, useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Card } from '../../components/ui/card';
import { CopyButton } from '../../components/ui/copy-button';
import { PageSpinner } from '../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { PermissionHint, useCan } from '../../lib/permissions';
import { useServerRef } from '../servers/api';
import { startupQueries, useUpdateVariable } from './api';
import { previewCommand } from './preview';
import { ImageSelect } from './image-select';
import { RuntimeNotice } from './runtime-notice';
import { VariableField } from './variable-field';
import { useT } from './messages';

/**
 * The server's startup: the command it runs, updated as values are typed, and one field per
 * variable the egg lets users see, each saved on its own.
 */
export function StartupPage() {
  const server = useServerRef();
  const t = useT();
  const query = useQuery(startupQueries.detail(server));
  const canUpdate = useCan('startup.update');
  const hintId = useId();
  const { mutateAsync } = useUpdateVariable(server);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const onDraft = useCallback((key: string, value: string) => setDrafts((d) => ({ ...d, [key]: value })), []);
  const save = useCallback((key: string, value: string) => mutateAsync({ key, value }), [mutateAsync]);

  const list = query.data;
  const command = useMemo(() => {
    if (!list) return '';
    const values = Object.fromEntries(list.data.map((v) => [v.attributes.env_variable, v.attributes.server_value ?? '']));
    return previewCommand(list.meta?.raw_startup_command ?? '', list.meta?.startup_command ?? '', { ...values, ...drafts });
  }, [list, drafts]);

  if (query.isPending) return <PageSpinner />;
  if (query.isError) return <ErrorState error={query.error} />;
  const variables = query.data.data.map((v) => v.attributes);

  return (
    <section aria-labelledby="startup-heading" className="space-y-4">
      <h2 id="startup-heading" className="text-lg font-semibold text-white">
        {t('startup.title')}
      </h2>
      <Card title={t('startup.command.title')} actions={<CopyButton value={command} label={t('startup.command.copy')} />}>
        <pre
          aria-label={t('startup.command.preview')}
          className="rounded-md bg-zinc-950 p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-zinc-200 ring-1 ring-zinc-800"
        >
          {command || '—'}
        </pre>
      </Card>
      <RuntimeNotice variables={variables} />
      <ImageSelect images={query.data.meta?.docker_images ?? {}} />
      {variables.length > 0 && <PermissionHint id={hintId} permission="startup.update" />}
      {variables.length === 0 ? (
        <EmptyState title={t('startup.noVariables.title')}>{t('startup.noVariables.detail')}</EmptyState>
      ) : (
        <div className="grid gap-4 md:grid-cols-2">
          {variables.map((v) => (
            <VariableField key={v.env_variable} variable={v} canUpdate={canUpdate} hintId={hintId} save={save} onDraft={onDraft} />
          ))}
        </div>
      )}
    </section>
  );
}
