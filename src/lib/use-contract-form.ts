import { useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema';
import type * as z from 'zod/mini';

/**
 * A react-hook-form form validated by a schema built from the contract (zod/mini schemas are
 * Standard Schemas), so the form refuses what the server would refuse, with the same messages.
 * Errors show after the first submit and then follow the typing.
 */
export function useContractForm<S extends z.ZodMiniType<unknown, FieldValues>>(
  schema: S,
  defaultValues: DefaultValues<z.input<S>>,
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    resolver: standardSchemaResolver(schema),
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
}
