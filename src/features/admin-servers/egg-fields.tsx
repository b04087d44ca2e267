import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { AdminEgg } from '../../contract/eggs';
import { SelectField, TextAreaField, TextField } from '../../components/ui/field';
import { adminServerQueries, type NestEggs } from './api';
import { useT } from './messages';
import type { ServerVariable } from './server-relations';

/*
 * The egg part of the create form and of the startup dialog: the egg picked among the nests'
 * eggs, its image (the egg's offered in a list), its startup command, and its variables with
 * their rules and defaults.
 */

export interface EggChoice {
  nests: NestEggs[];
  egg: AdminEgg | undefined;
  variables: ServerVariable[];
}

export const findEgg = (nests: readonly NestEggs[], id: number | string) => nests.flatMap((n) => n.eggs).find((e) => String(e.id) === String(id));

/**
 * The egg a form has picked and its variables: `current`'s (a server's, with its values) while
 * the form keeps that egg, else the egg's own with their defaults. Once another egg's variables
 * are known, `setEnvironment` gets their starting values, so a form never sends the old egg's.
 */
export function useEggChoice(
  eggId: number,
  setEnvironment: (values: Record<string, string>) => void,
  current?: { egg: number; variables: ServerVariable[] },
): EggChoice {
  const eggs = useQuery(adminServerQueries.eggs());
  const nests = eggs.data ?? [];
  const egg = findEgg(nests, eggId);
  const own = current !== undefined && current.egg === eggId;
  const fetched = useQuery({ ...adminServerQueries.eggVariables(egg?.nest ?? 0, eggId), enabled: egg !== undefined && !own });
  const variables: ServerVariable[] = own
    ? current.variables
    : (fetched.data ?? []).map((v) => ({
        name: v.name,
        description: v.description,
        env: v.env_variable,
        rules: v.rules,
        value: v.default_value,
        defaultValue: v.default_value,
      }));
  const ready = own || fetched.isSuccess;

  const applied = useRef(eggId);
  const latest = useRef({ setEnvironment, variables });
  useEffect(() => {
    latest.current = { setEnvironment, variables };
  });
  useEffect(() => {
    if (!ready || applied.current === eggId) return;
    applied.current = eggId;
    latest.current.setEnvironment(Object.fromEntries(latest.current.variables.map((v) => [v.env, v.value])));
  }, [ready, eggId]);

  return { nests, egg, variables };
}

/** The fields EggFields binds, as the startup body names them (the create form calls the image `docker_image`). */
export type EggField = 'image' | 'startup' | `environment.${string}`;

export interface EggFieldsProps {
  choice: EggChoice;
  egg: { value: string; onChange: (id: string) => void; error?: string };
  register: (field: EggField) => UseFormRegisterReturn;
  error: (field: EggField) => string | undefined;
  /** Shown between the egg's own fields and its variables. */
  children?: ReactNode;
}

export function EggFields({ choice, egg, register, error, children }: EggFieldsProps) {
  const t = useT();
  const listId = useId();
  return (
    <>
      <SelectField label={t('adminServers.egg')} error={egg.error} value={egg.value} onChange={(e) => egg.onChange(e.target.value)}>
        <option value="">{t('adminServers.egg.choose')}</option>
        {choice.nests.map((nest) => (
          <optgroup key={nest.id} label={nest.name}>
            {nest.eggs.map((e) => (
              <option key={e.id} value={e.id}>
                {e.name}
              </option>
            ))}
          </optgroup>
        ))}
      </SelectField>
      <TextField
        label={t('adminServers.field.image')}
        list={listId}
        autoComplete="off"
        hint={t('adminServers.egg.imageHint')}
        error={error('image')}
        {...register('image')}
      />
      <datalist id={listId}>
        {Object.entries(choice.egg?.docker_images ?? {}).map(([name, ref]) => (
          <option key={ref} value={ref}>
            {name}
          </option>
        ))}
      </datalist>
      <TextAreaField label={t('adminServers.startup.command')} rows={2} error={error('startup')} {...register('startup')} />
      {children}
      {choice.variables.length > 0 && (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-sm font-semibold text-zinc-100">{t('adminServers.egg.variables')}</legend>
          {choice.variables.map((v) => (
            <TextField
              key={v.env}
              label={
                <>
                  {v.name} <code className="text-xs text-zinc-400">{v.env}</code>
                </>
              }
              placeholder={v.defaultValue}
              hint={
                <>
                  {v.description && <span className="block">{v.description}</span>}
                  <span className="font-mono">{t('adminServers.egg.rules', { rules: v.rules || t('adminServers.egg.noRules') })}</span>
                </>
              }
              autoComplete="off"
              error={error(`environment.${v.env}`)}
              {...register(`environment.${v.env}`)}
            />
          ))}
        </fieldset>
      )}
    </>
  );
}
