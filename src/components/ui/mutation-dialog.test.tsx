// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import * as z from 'zod/mini';
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { ApiError } from '../../lib/http';
import { useContractForm } from '../../lib/use-contract-form';
import { MutationDialog } from './mutation-dialog';
import { TextField } from './field';

afterEach(cleanup);

const schema = z.object({ name: z.string().check(z.minLength(1, 'The name field is required.')) });

type Run = (name: string, signal: AbortSignal) => Promise<void>;

function Harness({ run }: { run: Run }) {
  const [open, setOpen] = useState(true);
  const mutation = useMutation({ mutationFn: ({ name, signal }: { name: string; signal: AbortSignal }) => run(name, signal) });
  const defaultValues = { name: '' };
  const form = useContractForm(schema, defaultValues);
  return (
    <>
      <p>{open ? 'open' : 'closed'}</p>
      <MutationDialog
        open={open}
        onOpenChange={setOpen}
        title="New folder"
        submitLabel="Create folder"
        form={form}
        defaultValues={defaultValues}
        mutation={mutation}
        onSubmit={(values, signal) => mutation.mutateAsync({ name: values.name, signal })}
        errorFields={{ fields: ['name'] }}
      >
        <TextField {...form.register('name')} label="Folder name" error={form.formState.errors.name?.message} />
      </MutationDialog>
    </>
  );
}

function setup(run: Run) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Harness run={run} />
    </QueryClientProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: 'New folder' });
  return { dialog, ue: userEvent.setup(), field: within(dialog).getByLabelText('Folder name') };
}

const apiError = (detail: string, field?: string) =>
  new ApiError(422, [{ code: 'ValidationException', status: '422', detail, ...(field ? { source: { field } } : {}) }]);

describe('MutationDialog', () => {
  it('checks the form with its schema before running anything', async () => {
    const run = vi.fn<Run>(() => Promise.resolve());
    const { dialog, ue, field } = setup(run);
    await ue.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    expect(await within(dialog).findByText('The name field is required.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(run).not.toHaveBeenCalled();
  });

  it('disables submit while the request runs and closes when it succeeds', async () => {
    let finish: () => void = () => undefined;
    const run = vi.fn<Run>(() => new Promise<void>((resolve) => (finish = resolve)));
    const { dialog, ue, field } = setup(run);
    await ue.type(field, 'maps');
    await ue.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: /Create folder/ })).toBeDisabled());
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(run).toHaveBeenCalledTimes(1);
    const [value, signal] = run.mock.calls[0] ?? [];
    expect(value).toBe('maps');
    expect(signal).toBeInstanceOf(AbortSignal);
    finish();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('closed')).toBeInTheDocument();
  });

  it('puts a server message about a field on the field, and any other above the form', async () => {
    const run = vi.fn<Run>().mockRejectedValueOnce(apiError('That name is taken.', 'name')).mockRejectedValueOnce(apiError('The disk is full.'));
    const { dialog, ue, field } = setup(run);
    await ue.type(field, 'maps');
    await ue.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    expect(await within(dialog).findByText('That name is taken.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getAllByRole('alert')).toHaveLength(1);
    await ue.type(field, '2');
    await ue.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('The disk is full.'));
    expect(screen.getByText('open')).toBeInTheDocument();
  });

  it('can be cancelled while the request runs, which aborts it', async () => {
    let seen: AbortSignal | undefined;
    const run = vi.fn<Run>(
      (_name, signal) =>
        new Promise<void>((_resolve, reject) => {
          seen = signal;
          signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    const { dialog, ue, field } = setup(run);
    await ue.type(field, 'maps');
    await ue.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: /Create folder/ })).toBeDisabled());
    await ue.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(seen?.aborted).toBe(true);
  });

  it('closes on Escape while the request runs, which aborts it', async () => {
    let seen: AbortSignal | undefined;
    const run = vi.fn<Run>((_name, signal) => {
      seen = signal;
      return new Promise<void>(() => undefined);
    });
    const { dialog, ue, field } = setup(run);
    await ue.type(field, 'maps');
    await ue.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: /Create folder/ })).toBeDisabled());
    await ue.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(seen?.aborted).toBe(true);
  });
});
