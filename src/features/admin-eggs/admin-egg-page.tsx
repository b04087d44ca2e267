import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { PageSpinner } from '../../components/ui/spinner';
import { ErrorState } from '../../components/ui/states';
import { toast } from '../../components/ui/toast';
import type { AdminEgg, AdminEggVariable } from '../../contract/eggs';
import { adminEggQueries, downloadEgg, useDeleteEgg, useDeleteVariable, type EggRef } from './api';
import { EggFormDialog, VariableFormDialog } from './egg-dialogs';
import { EggScriptForm } from './egg-script-form';
import { T, useT } from './messages';

const Row = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="grid gap-1 sm:grid-cols-[12rem_1fr]">
    <dt className="text-sm text-zinc-400">{label}</dt>
    <dd className="min-w-0 text-sm break-words text-zinc-100">{children}</dd>
  </div>
);

/** One egg: its details, startup, images, variables with their rules, install script; edit, export, delete. */
export function AdminEggPage() {
  const { nestId = '', eggId = '' } = useParams();
  const ref: EggRef = { nest: nestId, egg: eggId };
  const query = useQuery(adminEggQueries.egg(ref));
  if (query.isPending) return <PageSpinner />;
  if (query.isError) return <ErrorState error={query.error} />;
  return <EggView eggRef={ref} egg={query.data.egg} variables={query.data.variables} />;
}

function EggView({ eggRef: ref, egg, variables }: { eggRef: EggRef; egg: AdminEgg; variables: AdminEggVariable[] }) {
  const t = useT();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [variable, setVariable] = useState<AdminEggVariable | 'new' | null>(null);
  const [removing, setRemoving] = useState<AdminEggVariable | null>(null);
  const [deleting, setDeleting] = useState(false);
  const deleteEgg = useDeleteEgg();
  const deleteVariable = useDeleteVariable();

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <Link to="/admin/eggs" className="text-sm text-sky-400 hover:underline">
            {t('adminEggs.back')}
          </Link>
          <h2 className="text-lg font-semibold break-words text-white">{egg.name}</h2>
          <p className="text-sm break-all text-zinc-400">{egg.uuid}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setEditing(true)}>{t('adminEggs.edit')}</Button>
          <Button
            variant="secondary"
            onClick={() =>
              void downloadEgg(ref, egg.name).catch((e: unknown) => toast.error(e instanceof Error ? e.message : t('adminEggs.exportFailed')))
            }
          >
            {t('adminEggs.export')}
          </Button>
          <Button variant="danger" onClick={() => setDeleting(true)}>
            {t('adminEggs.delete')}
          </Button>
        </div>
      </div>

      <section aria-labelledby="egg-details" className="space-y-3 rounded-lg bg-zinc-900/60 p-4 ring-1 ring-zinc-800">
        <h3 id="egg-details" className="font-semibold text-white">
          {t('adminEggs.details')}
        </h3>
        <dl className="space-y-2">
          <Row label={t('adminEggs.description')}>{egg.description ?? '—'}</Row>
          <Row label={t('adminEggs.author')}>{egg.author}</Row>
          <Row label={t('adminEggs.startup')}>
            <code className="font-mono break-all">{egg.startup}</code>
          </Row>
          <Row label={t('adminEggs.dockerImages')}>
            <ul>
              {Object.entries(egg.docker_images).map(([name, image]) => (
                <li key={name}>
                  {name}: <code className="font-mono break-all">{image}</code>
                </li>
              ))}
            </ul>
          </Row>
          <Row label={t('adminEggs.stop')}>
            <code className="font-mono">{egg.config.stop}</code>
          </Row>
          <Row label={t('adminEggs.denylist')}>{egg.config.file_denylist.length ? egg.config.file_denylist.join(', ') : t('adminEggs.none')}</Row>
        </dl>
      </section>

      <section aria-labelledby="egg-variables" className="space-y-3">
        <div className="flex items-center justify-between gap-3">
          <h3 id="egg-variables" className="font-semibold text-white">
            {t('adminEggs.variables')}
          </h3>
          <Button variant="secondary" onClick={() => setVariable('new')}>
            {t('adminEggs.addVariable')}
          </Button>
        </div>
        {variables.length === 0 ? (
          <p className="text-sm text-zinc-400">{t('adminEggs.noVariables')}</p>
        ) : (
          <ul aria-label={t('adminEggs.variables')} className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
            {variables.map((v) => (
              <li key={v.id} className="flex flex-wrap items-start gap-3 px-4 py-3">
                <div className="min-w-0 flex-1 basis-60 space-y-1">
                  <p className="font-medium text-zinc-100">
                    {v.name} <code className="ml-1 font-mono text-xs text-zinc-400">{v.env_variable}</code>
                  </p>
                  {v.description && <p className="text-sm text-zinc-400">{v.description}</p>}
                  <p className="text-sm text-zinc-300">
                    <T
                      k="adminEggs.variable.summary"
                      values={{ value: v.default_value || t('adminEggs.variable.empty'), rules: v.rules || t('adminEggs.variable.noRules') }}
                      components={{ 0: <code className="font-mono break-all" />, 1: <code className="font-mono break-all" /> }}
                    />
                  </p>
                  <div className="flex flex-wrap gap-2">
                    <Badge tone={v.user_viewable ? 'info' : 'neutral'}>
                      {v.user_viewable ? t('adminEggs.variable.viewable') : t('adminEggs.variable.hidden')}
                    </Badge>
                    <Badge tone={v.user_editable ? 'info' : 'neutral'}>
                      {v.user_editable ? t('adminEggs.variable.editable') : t('adminEggs.variable.readOnly')}
                    </Badge>
                  </div>
                </div>
                <div className="flex gap-2">
                  <Button variant="secondary" aria-label={t('adminEggs.variable.editOf', { env: v.env_variable })} onClick={() => setVariable(v)}>
                    {t('adminEggs.editButton')}
                  </Button>
                  <Button variant="secondary" aria-label={t('adminEggs.variable.deleteOf', { env: v.env_variable })} onClick={() => setRemoving(v)}>
                    {t('adminEggs.delete')}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <EggScriptForm eggRef={ref} egg={egg} />

      <EggFormDialog eggRef={ref} egg={egg} open={editing} onOpenChange={setEditing} />
      <VariableFormDialog
        eggRef={ref}
        variable={variable === 'new' ? null : variable}
        open={variable !== null}
        onOpenChange={(open) => !open && setVariable(null)}
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t('adminEggs.variable.deleteTitle', { env: removing?.env_variable ?? '' })}
        description={t('adminEggs.variable.deleteBody')}
        confirmLabel={t('adminEggs.variable.delete')}
        danger
        mutation={deleteVariable}
        onConfirm={async (signal) => {
          if (removing) await deleteVariable.mutateAsync({ ref, variable: removing, signal });
        }}
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={t('adminEggs.deleteTitle', { name: egg.name })}
        description={t('adminEggs.deleteBody')}
        confirmLabel={t('adminEggs.deleteEgg')}
        danger
        mutation={deleteEgg}
        onConfirm={async (signal) => {
          await deleteEgg.mutateAsync({ ref, signal });
          void navigate('/admin/eggs');
        }}
      />
    </div>
  );
}
