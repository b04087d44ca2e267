import type * as z from 'zod/mini';
import { applicationServerStartupSchema } from '../../contract/admin-server-writes';
import { type ApplicationServer } from '../../contract/admin-servers';
import { Checkbox } from '../../components/ui/checkbox';
import { TextAreaField, TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import { useChangeStartup } from './api';
import { imagesOf, variablesOf } from './server-relations';

type Input = z.input<typeof applicationServerStartupSchema>;

/**
 * The startup command, image (the egg's offered in a list, any other typed), egg and the egg's
 * variables, each with its rules; the panel checks the values against the rules and a refusal
 * lands under its variable.
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
  const change = useChangeStartup();
  const images = imagesOf(server);
  const variables = variablesOf(server);
  const listId = `images-${server.id}`;
  const defaultValues: Input = {
    startup: server.container.startup_command,
    image: server.container.image,
    egg: String(server.egg),
    skip_scripts: server.container.skip_scripts,
    environment: Object.fromEntries(variables.map((v) => [v.env, v.value])),
  };
  const form = useContractForm(applicationServerStartupSchema, defaultValues);
  const { errors } = form.formState;
  const fields = ['startup', 'image', 'egg', 'skip_scripts', ...variables.map((v): `environment.${string}` => `environment.${v.env}`)] as const;

  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Edit startup"
      description={<span className="break-all">{server.name}</span>}
      submitLabel="Save"
      wide
      form={form}
      defaultValues={defaultValues}
      mutation={change}
      errorFields={{ fields }}
      onSubmit={(body, signal) => change.mutateAsync({ server, body, signal })}
    >
      <TextAreaField label="Startup command" rows={3} className="font-mono" error={errors.startup?.message} {...form.register('startup')} />
      <TextField
        label="Image"
        list={listId}
        autoComplete="off"
        hint="One of the egg’s images from the list, or any other image."
        error={errors.image?.message}
        {...form.register('image')}
      />
      <datalist id={listId}>
        {Object.entries(images).map(([name, image]) => (
          <option key={image} value={image}>
            {name}
          </option>
        ))}
      </datalist>
      <TextField
        label="Egg ID"
        inputMode="numeric"
        hint="Another egg changes the variables below once saved; their values start from the new egg’s defaults."
        error={errors.egg?.message}
        {...form.register('egg')}
      />
      <label className="flex items-start gap-2 text-sm text-zinc-200">
        <Checkbox className="mt-0.5" {...form.register('skip_scripts')} />
        <span>
          Skip the egg’s install script
          <span className="block text-xs text-zinc-400">A reinstall then only prepares the files, without running the script.</span>
        </span>
      </label>
      {variables.length > 0 && (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-sm font-semibold text-zinc-100">Variables</legend>
          {variables.map((v) => (
            <TextField
              key={v.env}
              label={
                <>
                  {v.name} <code className="text-xs text-zinc-400">{v.env}</code>
                </>
              }
              hint={
                <>
                  {v.description && <span className="block">{v.description}</span>}
                  <span className="font-mono">Rules: {v.rules || 'none'}</span>
                </>
              }
              autoComplete="off"
              error={errors.environment?.[v.env]?.message}
              {...form.register(`environment.${v.env}`)}
            />
          ))}
        </fieldset>
      )}
    </MutationDialog>
  );
}
