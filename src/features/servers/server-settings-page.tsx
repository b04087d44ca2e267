import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { renameServerSchema, type Server } from '../../contract/servers';
import { Can, PermissionHint, useServerPermissions } from '../../lib/permissions';
import { applyApiErrors } from '../../lib/form-errors';
import { useContractForm } from '../../lib/use-contract-form';
import { Button } from '../../components/ui/button';
import { Card, DetailItem, DetailList } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { CopyButton } from '../../components/ui/copy-button';
import { FormError, TextField } from '../../components/ui/field';
import { toast } from '../../components/ui/toast';
import { serverQueries, useBlockingCondition, useReinstallServer, useRenameServer, useServer, type ServerRef } from './api';
import { installOutputNote, seesInstallOutput } from './install-output';
import { SftpCard } from './server-overview-page';
import { t as translate, useT } from './messages';

/** A server's settings: how to reach its files, its name, a reinstall, and what to quote when asking for help. */
export function ServerSettingsPage() {
  const t = useT();
  const server = useServer();
  return (
    <div className="grid items-start gap-4 lg:grid-cols-2">
      <div className="grid min-w-0 gap-4">
        <Can permission="settings.rename" fallback={<LockedCard title={t('servers.rename.title')} permission="settings.rename" />}>
          <RenameCard server={server} />
        </Can>
        <Can permission="settings.reinstall" fallback={<LockedCard title={t('servers.reinstall.title')} permission="settings.reinstall" />}>
          <ReinstallCard server={server} />
        </Can>
      </div>
      <div className="grid min-w-0 gap-4">
        <SftpCard server={server} />
        <DebugCard server={server} />
      </div>
    </div>
  );
}

/** A card the subuser may not use: its title and the permission it needs. */
function LockedCard({ title, permission }: { title: string; permission: 'settings.rename' | 'settings.reinstall' }) {
  return (
    <Card title={title}>
      <PermissionHint permission={permission} />
    </Card>
  );
}

function RenameCard({ server }: { server: Server }) {
  const t = useT();
  const defaultValues = { name: server.name, description: server.description ?? '' };
  const form = useContractForm(renameServerSchema, defaultValues);
  const rename = useRenameServer(server);
  const blocking = useBlockingCondition();
  const [formError, setFormError] = useState<string | null>(null);
  const { errors, isDirty } = form.formState;

  // The saved values (a rename here or elsewhere) become the form's starting point. Reset rather than
  // remounted, so the form's focus is not dropped to <body> by a save.
  useEffect(() => form.reset({ name: server.name, description: server.description ?? '' }), [form, server.name, server.description]);

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await rename.mutateAsync({ name: values.name, description: values.description ?? '' });
      toast.success(t('servers.rename.done'));
      // Save is off again once nothing differs; the name field takes the focus it had.
      form.setFocus('name');
    } catch (error) {
      setFormError(applyApiErrors(error, form.setError, { fields: ['name', 'description'] }));
    }
  });

  return (
    <Card title={t('servers.rename.title')}>
      <form className="grid gap-4" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label={t('servers.rename.name')} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <div className="flex flex-col gap-1.5">
          <label htmlFor="server-description" className="text-sm font-medium text-zinc-200">
            {t('servers.description')}
          </label>
          <textarea
            id="server-description"
            rows={3}
            aria-invalid={errors.description ? true : undefined}
            className="rounded-md bg-zinc-900 px-3 py-2 text-zinc-100 ring-1 ring-zinc-700 ring-inset focus:ring-2 focus:ring-sky-500 focus:outline-none"
            {...form.register('description')}
          />
          {errors.description?.message && (
            <p role="alert" className="text-sm text-red-400">
              {errors.description.message}
            </p>
          )}
        </div>
        <FormError message={formError} />
        {blocking && <p className="text-sm text-zinc-400">{t('servers.rename.blocked', { reason: blocking.reason })}</p>}
        <div>
          <Button type="submit" loading={rename.isPending} disabled={!isDirty || blocking !== null}>
            {t('servers.rename.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function sayReinstallEnded(status: Server['status'], installNote: string) {
  if (status === 'reinstall_failed') toast.error(translate('servers.reinstall.failed', { note: installNote }));
  else toast.success(translate('servers.reinstall.finished'));
}

function ReinstallCard({ server }: { server: Server & ServerRef }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const reinstall = useReinstallServer(server);
  const blocking = useBlockingCondition();
  // The node answers once the script has begun; the mutation settles after the server was
  // refetched, and the server query polls while it is installing. The end is said when the
  // status, once seen installing, leaves it (or at once for a script that was already done).
  const client = useQueryClient();
  const [phase, setPhase] = useState<'idle' | 'started' | 'installing'>('idle');
  const permissions = useServerPermissions();
  const installNote = installOutputNote(permissions, server);
  useEffect(() => {
    if (phase === 'started' && server.status === 'installing') setPhase('installing');
    if (phase === 'installing' && server.status !== 'installing') {
      setPhase('idle');
      sayReinstallEnded(server.status, installNote);
    }
  }, [phase, server.status, installNote]);
  return (
    <Card title={t('servers.reinstall.title')}>
      <p className="text-sm text-zinc-300">{t('servers.reinstall.explain')}</p>
      {blocking && <p className="mt-2 text-sm text-zinc-400">{t('servers.reinstall.blocked', { reason: blocking.reason })}</p>}
      <Button className="mt-4" variant="danger" disabled={blocking !== null} onClick={() => setOpen(true)}>
        {t('servers.reinstall.open')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('servers.reinstall.confirmTitle')}
        danger
        confirmLabel={t('servers.reinstall.title')}
        mutation={reinstall}
        onConfirm={async (signal) => {
          await reinstall.mutateAsync({ signal });
          const status = client.getQueryData(serverQueries.detail(server.routeId).queryKey)?.attributes.status;
          if (status === 'installing') setPhase('started');
          else sayReinstallEnded(status ?? null, installNote);
        }}
      >
        <ul className="list-disc space-y-1 pl-5 text-sm text-zinc-300">
          <li>{t('servers.reinstall.stops')}</li>
          <li>
            {t('servers.reinstall.runsAgain')}{' '}
            {t(seesInstallOutput(permissions) ? 'servers.reinstall.outputShown' : 'servers.reinstall.outputHidden')}
          </li>
          <li>{t('servers.reinstall.replaces')}</li>
        </ul>
      </ConfirmDialog>
    </Card>
  );
}

/** What support asks for: where the server runs and its full id. */
function DebugCard({ server }: { server: Server }) {
  const t = useT();
  return (
    <Card title={t('servers.debug.title')}>
      <DetailList>
        <DetailItem term={t('servers.node')} action={<CopyButton value={server.node} label={t('servers.debug.copyNode')} />}>
          {server.node}
        </DetailItem>
        <DetailItem term={t('servers.debug.uuid')} action={<CopyButton value={server.uuid} label={t('servers.debug.copyUuid')} />}>
          <code className="font-mono break-all">{server.uuid}</code>
        </DetailItem>
      </DetailList>
    </Card>
  );
}
