import type * as z from 'zod/mini';
import { applicationServerStartupSchema } from '../../contract/admin-server-writes';
import { type ApplicationServer } from '../../contract/admin-servers';
import { Checkbox } from '../../components/ui/checkbox';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import { useChangeStartup } from './api';
import { EggFields, findEgg, useEggChoice } from './egg-fields';
import { useT } from './messages';
import { variablesOf } from './server-relations';

type Input = z.input<typeof applicationServerStartupSchema>;

/**
 * The egg (picked among the nests' eggs), image, startup command and the egg's variables, each
 * with its rules. Another egg brings its image, its startup command and its variables with their
 * defaults, as the create form does; the panel checks the values against that egg's rules and a
 * refusal lands under its variable.
 */
export function ServerStartupDialog({
  server,
  open,
  onOpenChange,
}: {
  server: ApplicationServer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useT();
  const change = useChangeStartup();
  const current = { egg: server.egg, variables: variablesOf(server) };
  const defaultValues: Input = {
    startup: server.container.startup_command,
    image: server.container.image,
    egg: String(server.egg),
    skip_scripts: server.container.skip_scripts,
    environment: Object.fromEntries(current.variables.map((v) => [v.env, v.value])),
  };
  const form = useContractForm(applicationServerStartupSchema, defaultValues);
  const { errors } = form.formState;
  const eggId = Number(form.watch('egg')) || 0;
  const choice = useEggChoice(eggId, (values) => form.setValue('environment', values), current);
  const fields = [
    'startup',
    'image',
    'egg',
    'skip_scripts',
    ...choice.variables.map((v): `environment.${string}` => `environment.${v.env}`),
  ] as const;

  // The server's own egg brings back its own image and command; another egg, that egg's.
  const pickEgg = (id: string) => {
    const next = findEgg(choice.nests, id);
    form.setValue('egg', id);
    if (!next) return;
    const own = next.id === server.egg;
    form.setValue('image', own ? server.container.image : next.docker_image);
    form.setValue('startup', own ? server.container.startup_command : next.startup);
  };

  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminServers.startup.edit')}
      description={<span className="break-all">{server.name}</span>}
      submitLabel={t('adminServers.save')}
      wide
      form={form}
      defaultValues={defaultValues}
      mutation={change}
      errorFields={{ fields }}
      onSubmit={(body, signal) => change.mutateAsync({ server, body, signal })}
    >
      <EggFields
        choice={choice}
        egg={{ value: String(form.watch('egg')), onChange: pickEgg, error: errors.egg?.message }}
        register={(field) => form.register(field)}
        error={(field) => form.getFieldState(field, form.formState).error?.message}
      >
        <label className="flex items-start gap-2 text-sm text-zinc-200">
          <Checkbox className="mt-0.5" {...form.register('skip_scripts')} />
          <span>
            {t('adminServers.startup.skip')}
            <span className="block text-xs text-zinc-400">{t('adminServers.startup.skipHint')}</span>
          </span>
        </label>
      </EggFields>
    </MutationDialog>
  );
}
