import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { EggVariableWrite } from '../../contract/egg-fields';
import { eggWriteEndpoints, type EggScript, type EggUpdate } from '../../contract/egg-writes';
import { eggEndpoints, eggListSchema, nestEndpoints, type AdminEgg, type AdminEggVariable } from '../../contract/eggs';
import { call } from '../../lib/http';

/*
 * Nests and eggs through the application API (a root admin's session). Every change refreshes
 * everything under ['admin', 'eggs']: the nest list and the egg's own page.
 */

export interface EggRef {
  nest: string;
  egg: string;
}

export const adminEggQueries = {
  all: () => ['admin', 'eggs'] as const,
  /** The nests with their eggs (a page of nests; a nest's eggs all come with it). */
  nests: (page: number) =>
    queryOptions({
      queryKey: [...adminEggQueries.all(), 'nests', page] as const,
      queryFn: ({ signal }) => call(nestEndpoints.list, { signal, query: { page, include: 'eggs' } }),
      placeholderData: keepPreviousData,
    }),
  egg: ({ nest, egg }: EggRef) =>
    queryOptions({
      queryKey: [...adminEggQueries.all(), 'egg', nest, egg] as const,
      queryFn: async ({ signal }) => {
        const res = await call(eggEndpoints.view, { signal, params: { nest, egg }, query: { include: 'variables,nest' } });
        const variables = res.attributes.relationships?.variables;
        const rows = variables && 'data' in variables && Array.isArray(variables.data) ? (variables.data as { attributes: unknown }[]) : [];
        return { egg: res.attributes, variables: rows.map((v) => v.attributes as AdminEggVariable) };
      },
    }),
};

/** The eggs `include=eggs` put under a nest, parsed with the egg's contract (none when absent). */
export function eggsOf(relationships: AdminEgg['relationships']): AdminEgg[] {
  const eggs = eggListSchema.safeParse(relationships?.eggs);
  return eggs.success ? eggs.data.data.map((e) => e.attributes) : [];
}

function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: adminEggQueries.all() });
}

export function useImportEgg() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ nest, file, signal }: { nest: string; file: Blob; signal?: AbortSignal }) =>
      call(eggWriteEndpoints.import, { signal, params: { nest }, body: file }),
    onSettled,
  });
}

export function useUpdateEgg() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ ref, body, signal }: { ref: EggRef; body: EggUpdate; signal?: AbortSignal }) =>
      call(eggWriteEndpoints.update, { signal, params: ref, body }),
    onSettled,
  });
}

export function useSetScript() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ ref, body, signal }: { ref: EggRef; body: EggScript; signal?: AbortSignal }) =>
      call(eggWriteEndpoints.script, { signal, params: ref, body }),
    onSettled,
  });
}

export function useDeleteEgg() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ref, signal }: { ref: EggRef; signal?: AbortSignal }) => call(eggWriteEndpoints.delete, { signal, params: ref }),
    onSuccess: (_, { ref }) => client.removeQueries({ queryKey: adminEggQueries.egg(ref).queryKey }),
    onSettled: () => client.invalidateQueries({ queryKey: adminEggQueries.all() }),
  });
}

export function useSaveVariable() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({
      ref,
      variable,
      body,
      signal,
    }: {
      ref: EggRef;
      variable: AdminEggVariable | null;
      body: EggVariableWrite;
      signal?: AbortSignal;
    }) =>
      variable
        ? call(eggWriteEndpoints.updateVariable, { signal, params: { ...ref, variable: variable.id }, body })
        : call(eggWriteEndpoints.createVariable, { signal, params: ref, body }),
    onSettled,
  });
}

export function useDeleteVariable() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ ref, variable, signal }: { ref: EggRef; variable: AdminEggVariable; signal?: AbortSignal }) =>
      call(eggWriteEndpoints.deleteVariable, { signal, params: { ...ref, variable: variable.id } }),
    onSettled,
  });
}

/** Downloads the egg as a PTDL_v2 file. */
export async function downloadEgg(ref: EggRef, name: string): Promise<void> {
  const file = await call(eggWriteEndpoints.export, { params: ref });
  const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 4)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `egg-${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'egg'
  }.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
